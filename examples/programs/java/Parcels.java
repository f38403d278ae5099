import java.util.ArrayList;
import java.util.List;

// Shipping charges for a day's parcels, in integer cents: a parcel costs 300
// cents for its first kilogram and 120 for each further kilogram or part of one
// (weights are in grams). Parcels over 20 kg go as freight, at a flat 4000.
//
// Known bug (on purpose): Parcels.extraKilos divides the grams past the first
// kilogram by 1000 with integer division, which rounds down, so a part of a
// kilogram is not charged (1500 g is charged as 1 kg, not 2).
public class Parcels {
    static final int FIRST_KILO_CENTS = 300;
    static final int EXTRA_KILO_CENTS = 120;
    static final int FREIGHT_GRAMS = 20_000;
    static final int FREIGHT_CENTS = 4000;
    static final int EXPECTED_CENTS = 5620; // 660 + 300 + 4000 + 660

    record Parcel(String to, int grams) {}

    static int extraKilos(int grams) {
        int past = Math.max(grams - 1000, 0);
        int kilos = past / 1000; // BUG: a part of a kilogram is a kilogram too
        return kilos;
    }

    static int charge(Parcel parcel) {
        if (parcel.grams() > FREIGHT_GRAMS) {
            return FREIGHT_CENTS;
        }
        return FIRST_KILO_CENTS + extraKilos(parcel.grams()) * EXTRA_KILO_CENTS;
    }

    public static void main(String[] args) {
        List<Parcel> parcels = new ArrayList<>();
        parcels.add(new Parcel("Lyon", 3500));
        parcels.add(new Parcel("Oslo", 800));
        parcels.add(new Parcel("Cairo", 25_000));
        parcels.add(new Parcel("Quito", 3001));
        int total = 0;
        for (Parcel parcel : parcels) {
            int cents = charge(parcel);
            total += cents;
            System.out.printf("%-6s %6d g: %5d cents%n", parcel.to(), parcel.grams(), cents);
        }
        System.out.println("charges: " + total + " cents (expected " + EXPECTED_CENTS + ")");
        System.exit(total == EXPECTED_CENTS ? 0 : 14);
    }
}

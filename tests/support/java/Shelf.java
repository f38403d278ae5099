import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

// Values of each kind the previews show: a map, a boxed number, a list of strings,
// a record holding a list, and a list longer than a preview shows.
public class Shelf {
    record Bin(String label, List<String> items) {}

    public static void main(String[] args) {
        Map<String, Integer> stock = new HashMap<>();
        stock.put("pen", 12);
        Integer reserved = 3;
        List<String> names = new ArrayList<>(List.of("pen", "pad"));
        Bin bin = new Bin("A1", names);
        List<Integer> many = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            many.add(i);
        }
        System.out.println("shelf " + stock + reserved + bin + many.size());
    }
}

// An exception the program catches, then one nothing catches.
public class Raises {
    static int parse(String text) {
        return Integer.parseInt(text);
    }

    public static void main(String[] args) {
        try {
            parse("twelve");
        } catch (NumberFormatException caught) {
            System.out.println("caught: " + caught.getMessage());
        }
        int shelves = args.length;
        throw new IllegalStateException("no stock on " + shelves + " shelves");
    }
}

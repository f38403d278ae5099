package shop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Paths;

// Says what it was given: a line of stdin, SHOP_MODE, its folder and arguments.
public class Echo {
    public static void main(String[] args) throws IOException {
        String line = new BufferedReader(new InputStreamReader(System.in)).readLine();
        String mode = System.getenv("SHOP_MODE");
        String folder = Paths.get("").toAbsolutePath().getFileName().toString();
        System.out.println("read " + line + "; mode " + mode + "; in " + folder + "; args " + String.join(",", args));
        System.exit(20 + args.length);
    }
}

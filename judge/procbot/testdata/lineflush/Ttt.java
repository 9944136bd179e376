import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Ttt {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String[] rows = new String[3];
        for (;;) {
            System.out.println("Board");
            for (int y = 0; y < 3; y++) {
                rows[y] = in.readLine();
                if (rows[y] == null) {
                    return;
                }
            }
            for (int i = 0; i < 9; i++) {
                if (rows[i / 3].charAt(2 * (i % 3)) == '-') {
                    System.out.print("PlaceSymbol " + i % 3 + " " + i / 3 + "\n");
                    break;
                }
            }
            System.out.println("#END");
        }
    }
}

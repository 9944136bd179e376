import java.util.ArrayList;
public class Memory {
	public static void main(String[] args) {
		ArrayList<byte[]> chunks = new ArrayList<>();
		for (;;) {
			byte[] b = new byte[16 << 20];
			java.util.Arrays.fill(b, (byte) 1);
			chunks.add(b);
		}
	}
}

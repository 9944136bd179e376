#include <iostream>
#include <string>

int main() {
    // Untied, cin no longer flushes cout before it reads: cout's lines
    // wait in C's stdout, as printf's do.
    std::cin.tie(nullptr);
    std::string row[3];
    for (;;) {
        std::cout << "Board\n";
        for (auto &r : row)
            if (!std::getline(std::cin, r))
                return 0;
        for (int i = 0; i < 9; i++) {
            if (row[i / 3][2 * (i % 3)] == '-') {
                std::cout << "PlaceSymbol " << i % 3 << ' ' << i / 3 << '\n';
                break;
            }
        }
        std::cout << "#END\n";
    }
}

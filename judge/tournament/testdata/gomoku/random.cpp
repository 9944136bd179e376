#include <iostream>
#include <string>
#include <vector>
int main() {
    for (int n, k;;) {
        std::cout << "Params" << std::endl;
        if (!(std::cin >> n >> k)) return 0;
        std::cout << "Board" << std::endl;
        std::vector<int> empty;
        for (int i = 0; i < n * n; i++) {
            std::string c;
            if (!(std::cin >> c)) return 0;
            if (c == "-") empty.push_back(i);
        }
        int i = empty[empty.size() / 2];
        std::cout << "PlaceSymbol " << i % n << " " << i / n << "\n#END" << std::endl;
    }
}

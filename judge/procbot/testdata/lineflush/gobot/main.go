package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	for {
		fmt.Println("Board")
		var rows [3][]string
		for y := range rows {
			if !in.Scan() {
				return
			}
			rows[y] = strings.Fields(in.Text())
		}
		for i := 0; i < 9; i++ {
			if rows[i/3][i%3] == "-" {
				fmt.Printf("PlaceSymbol %d %d\n", i%3, i/3)
				break
			}
		}
		fmt.Println("#END")
	}
}

// Command memorygo allocates until it is stopped.
package main

func main() {
	var chunks [][]byte
	for {
		b := make([]byte, 16<<20)
		for i := range b {
			b[i] = 1
		}
		chunks = append(chunks, b)
	}
}

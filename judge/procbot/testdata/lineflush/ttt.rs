use std::io::BufRead;

fn main() {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        println!("Board");
        let mut rows = Vec::new();
        for _ in 0..3 {
            match lines.next() {
                Some(Ok(l)) => rows.push(l.split_whitespace().map(String::from).collect::<Vec<_>>()),
                _ => return,
            }
        }
        if let Some(i) = (0..9).find(|i| rows[i / 3][i % 3] == "-") {
            println!("PlaceSymbol {} {}", i % 3, i / 3);
        }
        println!("#END");
    }
}

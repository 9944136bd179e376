use std::io::{self, BufRead, Write};
fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = io::stdout();
    loop {
        writeln!(out, "Params").unwrap();
        out.flush().unwrap();
        let Some(Ok(p)) = lines.next() else { return };
        let n: usize = p.split(' ').next().unwrap().parse().unwrap();
        writeln!(out, "Board").unwrap();
        out.flush().unwrap();
        let mut empty = vec![];
        for y in 0..n {
            let Some(Ok(row)) = lines.next() else { return };
            for (x, c) in row.split(' ').enumerate() {
                if c == "-" { empty.push((x, y)); }
            }
        }
        let (x, y) = empty[empty.len() - 1];
        writeln!(out, "PlaceSymbol {} {}\n#END", x, y).unwrap();
        out.flush().unwrap();
    }
}

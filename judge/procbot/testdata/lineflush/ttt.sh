#!/bin/sh
# Asks for the board, plays the first empty cell.
while :; do
    echo Board
    move=
    for y in 0 1 2; do
        read -r a b c || exit 0
        x=0
        for cell in "$a" "$b" "$c"; do
            if [ -z "$move" ] && [ "$cell" = "-" ]; then
                move="$x $y"
            fi
            x=$((x + 1))
        done
    done
    echo "PlaceSymbol $move"
    echo "#END"
done

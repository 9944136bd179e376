package games

// Painter is implemented by games that say how the cells of their grids
// are drawn, by value: a viewer and a terminal draw any grid from its
// game's palette.
type Painter interface {
	Palette() Palette
}

// Palette says how each cell value is drawn.
type Palette map[byte]Paint

// Paint is how one cell value is drawn.
type Paint struct {
	// Glyph is what a terminal shows for the cell: one character.
	Glyph string
	// Colour is what a viewer fills the cell with, "#rrggbb".
	Colour string
}

// Glyph is the glyph of cell value c: its paint's, or the character c
// itself when the palette has none.
func (p Palette) Glyph(c byte) string {
	if g := p[c].Glyph; g != "" {
		return g
	}
	return string(rune(c))
}

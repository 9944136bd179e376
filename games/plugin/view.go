package plugin

import (
	"encoding/json"
	"fmt"

	"judge/games"
)

// KindCells is the kind of a plugin game's grids: one character a cell,
// drawn as game.toml's [draw] table says.
const KindCells = "cells"

type viewReply struct {
	Error *string `json:"error"`
	Grids []struct {
		Name string   `json:"name"`
		Rows []string `json:"rows"`
	} `json:"grids"`
	Marks   []games.Mark         `json:"marks"`
	Seats   []string             `json:"seats"`
	Numbers map[string][]float64 `json:"numbers"`
}

func (r *viewReply) failure() *string { return r.Error }

// GridKinds implements games.GridKinder: a plugin game's grids are all
// of kind KindCells.
func (s *State) GridKinds() []string { return []string{KindCells} }

// View implements games.Viewer: the referee's view, its grids of kind
// KindCells; an empty view once the referee failed.
func (s *State) View() games.View {
	s.mu.Lock()
	defer s.mu.Unlock()
	var r viewReply
	if s.call("view", struct {
		Op string `json:"op"`
	}{"view"}, &r) != nil {
		return games.View{}
	}
	v := games.View{Marks: r.Marks, Seats: r.Seats}
	for name, vals := range r.Numbers {
		if len(vals) != s.seats {
			_ = s.fault("view", fmt.Sprintf("numbers %q: %d values for %d seats", name, len(vals), s.seats))
			return games.View{}
		}
		if len(vals) > 0 {
			if v.Numbers == nil {
				v.Numbers = map[string][]float64{}
			}
			v.Numbers[name] = vals
		}
	}
	for gi, g := range r.Grids {
		gr := games.Grid{Name: g.Name, Kind: KindCells, H: len(g.Rows)}
		for y, row := range g.Rows {
			if y == 0 {
				gr.W = len(row)
			}
			if len(row) != gr.W {
				b, _ := json.Marshal(g.Rows)
				_ = s.fault("view", fmt.Sprintf("grid %d: rows of different lengths: %s", gi, clip(b)))
				return games.View{}
			}
			gr.Cells = append(gr.Cells, row...)
		}
		v.Grids = append(v.Grids, gr)
	}
	return v
}

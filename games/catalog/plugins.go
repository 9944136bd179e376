package catalog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"judge/docs/protocol"
	"judge/games/plugin"
)

// The plugin games found so far, by folder and by name: a folder is
// loaded once (its WebAssembly referee compiled once) however often it is
// looked up.
var plugins struct {
	mu     sync.Mutex
	opts   plugin.Options
	byDir  map[string]*plugin.Game
	byName map[string]*plugin.Game
}

// UsePlugins sets how the plugin games loaded from now on run their
// process referees (plugin.Options.Start): the judge's command starts
// them in the sandbox.
func UsePlugins(opts plugin.Options) {
	plugins.mu.Lock()
	defer plugins.mu.Unlock()
	plugins.opts = opts
}

// CheckPlugins makes the plugin games loaded from now on ask their
// referees even the queries a status answered ahead, and fault a referee
// whose two answers differ (plugin.Options.AskAhead): judge game check's.
func CheckPlugins() {
	plugins.mu.Lock()
	defer plugins.mu.Unlock()
	plugins.opts.AskAhead = true
}

// IsGameDir reports whether dir is a plugin game's folder: it holds a
// game.toml.
func IsGameDir(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, plugin.SpecFile))
	return err == nil && st.Mode().IsRegular()
}

// AddGame loads the plugin game in folder dir and adds it to the
// catalog, under the name its game.toml gives. A name that is a built-in
// game's or variant's, or another folder's game's, is an error saying so.
func AddGame(dir string) (Variant, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Variant{}, err
	}
	plugins.mu.Lock()
	defer plugins.mu.Unlock()
	if g := plugins.byDir[abs]; g != nil {
		return pluginVariant(g), nil
	}
	g, err := plugin.Load(abs, plugins.opts)
	if err != nil {
		return Variant{}, err
	}
	name := g.Name()
	if builtin(name) {
		return Variant{}, fmt.Errorf("the plugin game in %s is named %q, the name of a built-in game: rename it (name in its %s)", dir, name, plugin.SpecFile)
	}
	if o := plugins.byName[name]; o != nil {
		return Variant{}, fmt.Errorf("two plugin games are named %q: %s and %s", name, o.Dir(), abs)
	}
	if plugins.byDir == nil {
		plugins.byDir, plugins.byName = map[string]*plugin.Game{}, map[string]*plugin.Game{}
	}
	plugins.byDir[abs], plugins.byName[name] = g, g
	return pluginVariant(g), nil
}

// AddPath adds every plugin game in the folders of dir (each a folder
// holding a game.toml), or the game of dir itself when it holds one. A
// dir that does not exist adds nothing; a game that does not load is an
// error.
func AddPath(dir string) error {
	if IsGameDir(dir) {
		_, err := AddGame(dir)
		return err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		if !e.IsDir() || !IsGameDir(sub) {
			continue
		}
		if _, err := AddGame(sub); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func builtin(name string) bool {
	for _, v := range variants {
		if v.Name == name || v.Game.Name() == name {
			return true
		}
	}
	return false
}

func pluginVariant(g *plugin.Game) Variant {
	return Variant{Name: g.Name(), Game: g, Dir: g.Dir()}
}

// pluginByName is the plugin game added under name, if any.
func pluginByName(name string) (Variant, bool) {
	plugins.mu.Lock()
	defer plugins.mu.Unlock()
	if g := plugins.byName[name]; g != nil {
		return pluginVariant(g), true
	}
	return Variant{}, false
}

// pluginVariants are the plugin games added, sorted by name.
func pluginVariants() []Variant {
	plugins.mu.Lock()
	defer plugins.mu.Unlock()
	var out []Variant
	for _, g := range plugins.byName {
		out = append(out, pluginVariant(g))
	}
	slices.SortFunc(out, func(a, b Variant) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// looksLikeDir reports whether a game's name, as given, is a folder: it
// has a path separator, or is a folder holding a game.toml.
func looksLikeDir(name string) bool {
	return strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator) || name == "." || IsGameDir(name)
}

// Guide is the guide of the variant's game for bot authors (Markdown): a
// plugin game's protocol.md when its folder has one, else the judge's
// page of a game of that name (docs/protocol), else, for a plugin game,
// the guide made from its game.toml. False when there is none.
func (v Variant) Guide() ([]byte, bool) {
	g, isPlugin := v.Game.(interface{ Guide() []byte })
	if isPlugin && v.Dir != "" {
		if _, err := os.Stat(filepath.Join(v.Dir, plugin.GuideFile)); err == nil {
			return g.Guide(), true
		}
	}
	if b, ok := protocol.Guide(v.Game.Name()); ok {
		return b, true
	}
	if isPlugin {
		return g.Guide(), true
	}
	return nil, false
}

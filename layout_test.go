package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// layers ranks the module's packages so that imports read one way, top
// down: main → engine → httpapi → actors → auth → storage → the leaf
// packages under internal/. A package may import its own rank or below,
// never above; a package missing here fails the test until it is given a
// rank, so a new package is placed on purpose. The longest matching prefix
// wins.
var layers = []struct {
	prefix string
	rank   int
}{
	{"kj", 7}, // main
	{"kj/engine", 6},
	{"kj/httpapi", 5},
	{"kj/actors", 4},
	{"kj/engine/seed", 4}, // the demo content of `kj seed --demo`, beside the command
	{"kj/loadtest", 4},
	{"kj/customer", 4},
	{"kj/wallet", 4},     // the wallet's rules, beside the actors it calls (actors/ledger)
	{"kj/protection", 4}, // player protection's rules, beside the wallet's; the API calls them on bets and recharges
	{"kj/push", 4},       // Web Push, offered messages by the chat actors beside it
	{"kj/auth", 3},
	{"kj/storage", 2},
	{"kj/internal", 1},
	{"kj/webapp", 1}, // the embedded build of the web app
}

func layerOf(pkg string) (int, bool) {
	best, rank := -1, 0
	for _, l := range layers {
		if (pkg == l.prefix || strings.HasPrefix(pkg, l.prefix+"/")) && len(l.prefix) > best {
			best, rank = len(l.prefix), l.rank
		}
	}
	// "kj" alone is the main package; "kj/x" with no entry is unranked.
	if best == len("kj") && pkg != "kj" {
		return 0, false
	}
	return rank, best >= 0
}

// TestImportsPointDown parses every Go file of the module (tests too) and
// fails when a package imports a kj package ranked above it, such as
// actors/chat importing httpapi or httpapi importing engine. External test
// packages are exempt (see below).
func TestImportsPointDown(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "dist" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		pkg := "kj"
		if dir := filepath.ToSlash(filepath.Dir(path)); dir != "." {
			pkg += "/" + dir
		}
		from, ok := layerOf(pkg)
		if !ok {
			t.Errorf("%s: package %s has no rank in layout_test.go's layers; give it one", path, pkg)
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		// An external test package (package x_test) is not part of the
		// program: it may import upward to test x through the parts above
		// it, as actors/chat's api_test.go does with httpapi.
		external := strings.HasSuffix(f.Name.Name, "_test")
		for _, imp := range f.Imports {
			target, _ := strconv.Unquote(imp.Path.Value)
			if target != "kj" && !strings.HasPrefix(target, "kj/") {
				continue
			}
			to, ok := layerOf(target)
			if !ok {
				t.Errorf("%s imports %s, which has no rank in layout_test.go's layers", path, target)
				continue
			}
			if to > from && !external {
				t.Errorf("%s (%s, rank %d) imports %s (rank %d): imports must point down", path, pkg, from, target, to)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d Go files checked; is the test running from the module root?", checked)
	}
}

// TestLayerRanksCatchAnUpwardImport guards the guard: the cases the issue
// names are ranked the way the rule needs.
func TestLayerRanksCatchAnUpwardImport(t *testing.T) {
	rank := func(p string) int {
		r, ok := layerOf(p)
		if !ok {
			t.Fatalf("%s unranked", p)
		}
		return r
	}
	for _, c := range [][2]string{
		{"kj/actors/chat", "kj/httpapi"},
		{"kj/httpapi", "kj/engine"},
		{"kj/auth", "kj/actors/chat"},
		{"kj/storage", "kj/auth"},
		{"kj/internal/bus", "kj/storage"},
		{"kj/engine", "kj"},
	} {
		if rank(c[0]) >= rank(c[1]) {
			t.Errorf("%s may import %s", c[0], c[1])
		}
	}
	if _, ok := layerOf("kj/newthing"); ok {
		t.Error("an unknown top-level package is ranked")
	}
	if _, err := os.Stat("go.mod"); err != nil {
		t.Fatal("not at the module root")
	}
}

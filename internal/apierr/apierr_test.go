package apierr

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func TestEveryMessageInSixLanguagesWithSamePlaceholders(t *testing.T) {
	ph := regexp.MustCompile(`\{[a-zA-Z0-9_]+\}`)
	catalog := Catalog()
	if len(catalog) == 0 {
		t.Fatal("empty catalogue")
	}
	for key, texts := range catalog {
		want := ph.FindAllString(texts[DefaultLang], -1)
		sort.Strings(want)
		for _, l := range Langs {
			s, ok := texts[l]
			if !ok || strings.TrimSpace(s) == "" {
				t.Errorf("%s: missing %s", key, l)
				continue
			}
			got := ph.FindAllString(s, -1)
			sort.Strings(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s/%s: placeholders %v, zh-CN has %v", key, l, got, want)
			}
		}
		if len(texts) != len(Langs) {
			t.Errorf("%s: %d locales, want %d", key, len(texts), len(Langs))
		}
	}
}

func TestNegotiateLang(t *testing.T) {
	cases := map[string]string{
		"":                       "zh-CN",
		"fr-FR":                  "zh-CN",
		"en-US":                  "en-US",
		"en-GB,en;q=0.9":         "en-US",
		"fr,es;q=0.8":            "es-ES",
		"zh-TW":                  "zh-HANT",
		"zh-Hant-HK":             "zh-HANT",
		"zh-HANT":                "zh-HANT",
		"zh":                     "zh-CN",
		"vi":                     "vi-VN",
		"ms-MY":                  "ms-MY",
		"vn":                     "vi-VN",
		"cn":                     "zh-CN",
		"de-DE;q=1, vi-VN;q=0.5": "vi-VN",
	}
	for in, want := range cases {
		if got := NegotiateLang(in); got != want {
			t.Errorf("NegotiateLang(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTranslateFillsPlaceholders(t *testing.T) {
	if got := Translate("en-US", "field.required", map[string]any{"field": "account"}); got != "account is required" {
		t.Fatalf("got %q", got)
	}
	if got := Translate("xx", "field.required", map[string]any{"field": "x"}); got != "x 不能为空" {
		t.Fatalf("unknown locale should fall back to zh-CN, got %q", got)
	}
}

// TestEveryCodeHasATextInEveryLanguage reads the module's Go sources for
// the places an error is made — Fail(code, "key", ...), ChatError(code)
// through chatKeys, Error{Code: code, Key: "key"}, code, key = code, "key"
// — and fails when a code
// declared in codes.go is never given a message, or a key given to a code
// lacks a text in one of the six languages.
func TestEveryCodeHasATextInEveryLanguage(t *testing.T) {
	fset := token.NewFileSet()
	codes := map[string]int{} // constants declared in codes.go, by name
	f, err := parser.ParseFile(fset, "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok {
						t.Fatalf("%s is not a number literal", n.Name)
					}
					codes[n.Name], _ = strconv.Atoi(lit.Value)
				}
			}
		}
	}
	if len(codes) < 100 {
		t.Fatalf("only %d codes read from codes.go", len(codes))
	}

	keysOf := map[string][]string{} // code name -> message keys
	name := func(e ast.Expr) string {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name
		case *ast.SelectorExpr:
			return x.Sel.Name
		}
		return ""
	}
	str := func(e ast.Expr) (string, bool) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, err := strconv.Unquote(lit.Value)
			return s, err == nil
		}
		return "", false
	}
	root := filepath.Join("..", "..")
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "node_modules" || n == "dist" || (strings.HasPrefix(n, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				if name(x.Fun) == "Fail" && len(x.Args) >= 2 {
					if key, ok := str(x.Args[1]); ok && codes[name(x.Args[0])] != 0 {
						keysOf[name(x.Args[0])] = append(keysOf[name(x.Args[0])], key)
					}
				}
			case *ast.AssignStmt: // code, key = CodeX, "key"
				var code, key string
				for i, l := range x.Lhs {
					if i < len(x.Rhs) && codes[name(x.Rhs[i])] != 0 {
						code = name(x.Rhs[i])
					} else if i < len(x.Rhs) && name(l) == "key" {
						key, _ = str(x.Rhs[i])
					}
				}
				if code != "" && key != "" {
					keysOf[code] = append(keysOf[code], key)
				}
			case *ast.CompositeLit:
				if name(x.Type) != "Error" {
					return true
				}
				var code, key string
				for _, el := range x.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						switch name(kv.Key) {
						case "Code":
							code = name(kv.Value)
						case "Key":
							key, _ = str(kv.Value)
						}
					}
				}
				if codes[code] != 0 && key != "" {
					keysOf[code] = append(keysOf[code], key)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for code, key := range chatKeys {
		for n, v := range codes {
			if v == code {
				keysOf[n] = append(keysOf[n], key)
			}
		}
	}
	catalog := Catalog()
	for c := range codes {
		if c == "CodeOK" {
			continue // success carries "ok", written by the envelope itself
		}
		keys := keysOf[c]
		if len(keys) == 0 {
			t.Errorf("%s is never given a message (no Fail(%s, \"key\") anywhere)", c, c)
		}
		for _, k := range keys {
			for _, l := range Langs {
				if strings.TrimSpace(catalog[k][l]) == "" {
					t.Errorf("%s: key %q has no %s text in locales/%s.json", c, k, l, l)
				}
			}
		}
	}
	if len(catalog["ok"]) != len(Langs) {
		t.Error(`"ok" is not in every language`)
	}
}

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"kj/internal/config"
)

// tableRows returns the rows of every markdown table in doc whose header
// row is exactly header, as trimmed cells; rows inside fenced code are not
// tables.
func tableRows(t *testing.T, doc, header string) [][]string {
	t.Helper()
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	inTable, fenced := false, false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		switch {
		case fenced:
			inTable = false
		case strings.TrimSpace(line) == header:
			inTable = true
		case inTable && strings.HasPrefix(line, "|---"):
		case inTable && strings.HasPrefix(line, "|"):
			cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), " | ")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			rows = append(rows, cells)
		default:
			inTable = false
		}
	}
	return rows
}

// TestConfigurationTableMatchesTheCode keeps docs/CONFIGURATION.md's table
// of the node's settings equal to config.Vars, both ways: every variable the
// code reads is documented with its flag and default, and the table names
// no variable the code does not read. An empty default is written "—".
func TestConfigurationTableMatchesTheCode(t *testing.T) {
	rows := tableRows(t, "docs/CONFIGURATION.md", "| variable | flag | default | meaning |")
	cell := regexp.MustCompile("^`([^`]*)`$")
	documented := map[string][]string{}
	for _, r := range rows {
		if len(r) != 4 {
			t.Errorf("docs/CONFIGURATION.md: row %q has %d cells, want 4", strings.Join(r, " | "), len(r))
			continue
		}
		m := cell.FindStringSubmatch(r[0])
		if m == nil {
			t.Errorf("docs/CONFIGURATION.md: variable cell %q is not one `KJ_...` name", r[0])
			continue
		}
		if _, dup := documented[m[1]]; dup {
			t.Errorf("docs/CONFIGURATION.md lists %s twice", m[1])
		}
		documented[m[1]] = r
	}
	if len(documented) < 20 {
		t.Fatalf("read only %d settings from docs/CONFIGURATION.md; has its table's header changed?", len(documented))
	}
	inCode := map[string]bool{}
	for _, v := range config.Vars {
		inCode[v.Env] = true
		r, ok := documented[v.Env]
		if !ok {
			t.Errorf("%s (--%s, default %q) is read by internal/config but missing from docs/CONFIGURATION.md", v.Env, v.Flag, v.Default)
			continue
		}
		if want := "`--" + v.Flag + "`"; r[1] != want {
			t.Errorf("docs/CONFIGURATION.md: %s's flag is %s, the code's %s", v.Env, r[1], want)
		}
		want := "`" + v.Default + "`"
		if v.Default == "" {
			want = "—"
		}
		if r[2] != want {
			t.Errorf("docs/CONFIGURATION.md: %s's default is %s, the code's %s", v.Env, r[2], want)
		}
	}
	for name := range documented {
		if !inCode[name] {
			t.Errorf("docs/CONFIGURATION.md documents %s, which internal/config does not read", name)
		}
	}
}

// TestErrorCodeTablesMatchTheCode keeps the error-code tables of
// docs/API.md equal to the codes internal/apierr declares, both ways, and
// lists no code twice. A row whose meaning starts with "retired" keeps a
// code clients may still meet in old logs; it must not be declared.
func TestErrorCodeTablesMatchTheCode(t *testing.T) {
	declared := declaredCodes(t, "internal/apierr/codes.go")
	documented := map[int]int{}
	for _, r := range tableRows(t, "docs/API.md", "| code | meaning |") {
		n, err := strconv.Atoi(r[0])
		if err != nil || len(r) != 2 || r[1] == "" {
			t.Errorf("docs/API.md: error-code row %q is not | number | meaning |", strings.Join(r, " | "))
			continue
		}
		if strings.HasPrefix(r[1], "retired") {
			if name, ok := declared[n]; ok {
				t.Errorf("docs/API.md says %d is retired, but internal/apierr/codes.go declares it (%s)", n, name)
			}
			continue
		}
		documented[n]++
	}
	if len(documented) < 50 {
		t.Fatalf("read only %d codes from docs/API.md; has a table's header changed?", len(documented))
	}
	var missing, extra []string
	for code, name := range declared {
		if documented[code] == 0 {
			missing = append(missing, strconv.Itoa(code)+" ("+name+")")
		}
	}
	for code, n := range documented {
		if _, ok := declared[code]; !ok {
			extra = append(extra, strconv.Itoa(code))
		}
		if n > 1 {
			t.Errorf("docs/API.md lists code %d %d times", code, n)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("declared in internal/apierr/codes.go but missing from docs/API.md's tables: %s", strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		t.Errorf("in docs/API.md's tables but not declared in internal/apierr/codes.go: %s", strings.Join(extra, ", "))
	}
}

// declaredCodes reads the Code* integer constants of a Go file, by value.
func declaredCodes(t *testing.T, path string) map[int]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[int]string{}
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if !strings.HasPrefix(name.Name, "Code") || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.INT {
					t.Fatalf("%s: %s is not an integer literal; read it another way", path, name.Name)
				}
				n, _ := strconv.Atoi(lit.Value)
				if prev, dup := codes[n]; dup {
					t.Errorf("%s: %s and %s are both %d", path, prev, name.Name, n)
				}
				codes[n] = name.Name
			}
		}
	}
	if len(codes) < 50 {
		t.Fatalf("read only %d codes from %s", len(codes), path)
	}
	return codes
}

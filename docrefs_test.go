package main

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	mdName = regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b`)
	anURL  = regexp.MustCompile(`[a-z]+://\S+`)
)

// The documents the README's map must list, whatever else docs/ holds.
var requiredDocs = []string{"ARCHITECTURE", "API", "CONFIGURATION", "GLOSSARY", "OPERATIONS", "PERFORMANCE", "PROTOCOL", "SCALING", "SECURITY"}

// TestDocumentsNamedExist fails when a source file or document names a
// markdown file the repository does not have — a comment pointing at
// notes kept elsewhere leaves the reader with nowhere to go. A name is
// found relative to the naming file, relative to the repository root, or,
// written bare (README.md, PROTOCOL.md), as any markdown file of that name.
// Its subtests hold the documents' own links, the README's map of docs/
// and the test names the documents cite.
func TestDocumentsNamedExist(t *testing.T) {
	t.Run("links", testMarkdownLinksResolve)
	t.Run("map", testReadmeMapsEveryDocument)
	t.Run("tests", testCitedTestsExist)

	exts := map[string]bool{".go": true, ".ts": true, ".tsx": true, ".js": true, ".mjs": true, ".sh": true, ".md": true, ".yaml": true}
	type ref struct{ file, name string }
	var refs []ref
	bare := map[string]bool{} // base names of the repository's markdown files
	err := walkRepository(func(path string, d fs.DirEntry) error {
		if strings.HasSuffix(path, ".md") {
			bare[d.Name()] = true
		}
		if !exts[filepath.Ext(path)] && d.Name() != "Makefile" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := anURL.ReplaceAllString(string(b), "")
		for _, name := range mdName.FindAllString(text, -1) {
			refs = append(refs, ref{filepath.ToSlash(path), name})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bare) < 5 || !bare["README.md"] {
		t.Fatalf("found only %d markdown files; is the test running from the repository root?", len(bare))
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	for _, r := range refs {
		name := strings.TrimPrefix(r.name, "./")
		switch {
		case exists(filepath.Join(filepath.Dir(r.file), name)), exists(name):
		case !strings.Contains(name, "/") && bare[name]:
		default:
			t.Errorf("%s names %s, which is not in the repository; point it at docs/ or say it in place", r.file, r.name)
		}
	}
}

// walkRepository calls f for every file of the repository that is ours:
// not under node_modules, a build's dist or a hidden folder.
func walkRepository(f func(path string, d fs.DirEntry) error) error {
	return filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if path != "." && (n == "node_modules" || n == "dist" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		return f(path, d)
	})
}

// markdownFiles reads every markdown file of the repository, by slash path.
func markdownFiles(t *testing.T) map[string]string {
	t.Helper()
	docs := map[string]string{}
	err := walkRepository(func(p string, _ fs.DirEntry) error {
		if strings.HasSuffix(p, ".md") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			docs[filepath.ToSlash(p)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if docs["README.md"] == "" {
		t.Fatal("no README.md; is the test running from the repository root?")
	}
	return docs
}

var (
	fence     = regexp.MustCompile("(?ms)^ {0,3}```.*?^ {0,3}```[^\n]*$")
	codeSpan  = regexp.MustCompile("`[^`\n]*`")
	mdLink    = regexp.MustCompile(`!?\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	heading   = regexp.MustCompile(`(?m)^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$`)
	notInSlug = regexp.MustCompile(`[^\p{L}\p{M}\p{N}\p{Pc} -]`)
	hasScheme = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	citedTest = regexp.MustCompile("`((?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*)`")
	declTest  = regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*)\(`)
)

// prose is a markdown text without its fenced blocks and code spans, where
// neither links nor headings are what they look like.
func prose(md string) string {
	return codeSpan.ReplaceAllString(fence.ReplaceAllString(md, ""), "")
}

// anchors are the heading ids GitHub gives a markdown text: the heading's
// text without markup, lower-cased, punctuation other than '-' and '_'
// dropped, each space a '-'; a repeated id gets -1, -2, ... in order.
func anchors(md string) map[string]bool {
	ids := map[string]bool{}
	seen := map[string]int{}
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(md, ""), -1) {
		text := mdLink.ReplaceAllString(m[1], "$1")
		id := strings.ReplaceAll(notInSlug.ReplaceAllString(strings.ToLower(text), ""), " ", "-")
		if n := seen[id]; n > 0 {
			ids[fmt.Sprintf("%s-%d", id, n)] = true
		} else {
			ids[id] = true
		}
		seen[id]++
	}
	return ids
}

// resolve is where a relative link of file points, as a slash path from the
// repository root ("" and ok=false for links off the repository).
func resolve(file, target string) (string, bool) {
	if hasScheme.MatchString(target) || strings.HasPrefix(target, "//") {
		return "", false
	}
	if strings.HasPrefix(target, "/") {
		return path.Clean(strings.TrimPrefix(target, "/")), true
	}
	return path.Clean(path.Join(path.Dir(file), target)), true
}

// testMarkdownLinksResolve: every link of every markdown file points at a
// file or folder the repository has and, with #fragment into a markdown
// file, at a heading that file has.
func testMarkdownLinksResolve(t *testing.T) {
	docs := markdownFiles(t)
	ids := map[string]map[string]bool{}
	checked := 0
	for file, md := range docs {
		for _, m := range mdLink.FindAllStringSubmatch(prose(md), -1) {
			target, fragment, _ := strings.Cut(m[2], "#")
			dest := file
			if target != "" {
				var ok bool
				if dest, ok = resolve(file, target); !ok {
					continue
				}
				if _, err := os.Stat(filepath.FromSlash(dest)); err != nil {
					t.Errorf("%s links to %s, which is not in the repository", file, m[2])
					continue
				}
			}
			checked++
			if fragment == "" || !strings.HasSuffix(dest, ".md") {
				continue
			}
			if ids[dest] == nil {
				ids[dest] = anchors(docs[dest])
			}
			if !ids[dest][fragment] {
				t.Errorf("%s links to %s, but %s has no heading with the id %q", file, m[2], dest, fragment)
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked only %d links", checked)
	}
}

// testReadmeMapsEveryDocument: docs/ holds at least the documents every
// audience expects, and the README's map links every document in docs/.
func testReadmeMapsEveryDocument(t *testing.T) {
	docs := markdownFiles(t)
	for _, name := range requiredDocs {
		if _, ok := docs["docs/"+name+".md"]; !ok {
			t.Errorf("%s is missing", "docs/"+name+".md")
		}
	}
	linked := map[string]bool{}
	for _, m := range mdLink.FindAllStringSubmatch(prose(docs["README.md"]), -1) {
		target, _, _ := strings.Cut(m[2], "#")
		if dest, ok := resolve("README.md", target); ok {
			linked[dest] = true
		}
	}
	for file := range docs {
		if path.Dir(file) == "docs" && !linked[file] {
			t.Errorf("README.md's map does not link %s", file)
		}
	}
}

// testCitedTestsExist: a Go test, benchmark or fuzz target a document names
// in backquotes is declared in some _test.go file, so "tested by" never
// points at a test that was renamed or removed.
func testCitedTestsExist(t *testing.T) {
	declared := map[string]bool{}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if p != "." && (n == "node_modules" || n == "dist" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range declTest.FindAllStringSubmatch(string(b), -1) {
			declared[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(declared) < 100 {
		t.Fatalf("found only %d Go tests", len(declared))
	}
	for file, md := range markdownFiles(t) {
		for _, m := range citedTest.FindAllStringSubmatch(fence.ReplaceAllString(md, ""), -1) {
			if !declared[m[1]] {
				t.Errorf("%s cites %s, which no _test.go file declares", file, m[1])
			}
		}
	}
}

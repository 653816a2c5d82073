package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	mdName = regexp.MustCompile(`[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b`)
	anURL  = regexp.MustCompile(`[a-z]+://\S+`)
)

// TestDocumentsNamedExist fails when a source file or document names a
// markdown file the repository does not have — a comment pointing at
// notes kept elsewhere leaves the reader with nowhere to go. A name is
// found relative to the naming file, relative to the repository root, or,
// written bare (README.md, PROTOCOL.md), as any markdown file of that name.
func TestDocumentsNamedExist(t *testing.T) {
	exts := map[string]bool{".go": true, ".ts": true, ".tsx": true, ".js": true, ".mjs": true, ".sh": true, ".md": true, ".yaml": true}
	type ref struct{ file, name string }
	var refs []ref
	bare := map[string]bool{} // base names of the repository's markdown files
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
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

package loadtest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The figures table of RESULTS.md sits between these markers; `kjload
// report` rewrites it from results/*.json and leaves the rest of the page
// (the analysis) alone.
const (
	reportBegin = "<!-- figures:begin (written by `go run ./loadtest/cmd/kjload report`) -->"
	reportEnd   = "<!-- figures:end -->"
)

// UpdateReport rewrites the figures table of file from the results in dir.
func UpdateReport(dir, file string) error {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	var results []*Result
	for _, p := range paths {
		r, err := ReadResult(p)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if !r.Smoke {
			results = append(results, r)
		}
	}
	sort.Slice(results, func(i, j int) bool { return workloadOrder(results[i].Workload) < workloadOrder(results[j].Workload) })
	table := ReportTable(results)
	page, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	s := string(page)
	i, j := strings.Index(s, reportBegin), strings.Index(s, reportEnd)
	if i < 0 || j < i {
		s = "# Load test results\n\n" + reportBegin + "\n" + reportEnd + "\n" + s
		i, j = strings.Index(s, reportBegin), strings.Index(s, reportEnd)
	}
	s = s[:i] + reportBegin + "\n" + table + s[j:]
	return os.WriteFile(file, []byte(s), 0o644)
}

func workloadOrder(id string) string {
	// W4L sorts after W4 and before W5.
	return strings.Replace(id, "L", "~", 1)
}

// ReportTable renders results as a Markdown table: each workload's target
// beside its figures, whether it is met, and where and when it was taken.
func ReportTable(results []*Result) string {
	var b strings.Builder
	b.WriteString("| id | workload | target | measured (median of runs) | met | runs | commit | machine |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, r := range results {
		met := "**no**"
		if r.Pass {
			met = "yes"
		}
		runs := max(1, len(r.Runs))
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | `%s` | %s |\n", r.Workload, r.Title, r.Target.Text,
			figuresText(r), met, runs, r.Commit, machineText(r.Machine))
	}
	return b.String()
}

func figuresText(r *Result) string {
	keys := make([]string, 0, len(r.Figures))
	for k := range r.Figures {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %s", k, formatFigure(r.Figures[k])))
	}
	out := strings.Join(parts, "; ")
	if r.Peer != nil {
		out += fmt.Sprintf(" — peer %s %s: %s", r.Peer.Name, r.Peer.Version, figuresText(&Result{Figures: r.Peer.Figures}))
	}
	if r.Floor != nil {
		out += fmt.Sprintf(" — floor %s: %s", r.Floor.Name, figuresText(&Result{Figures: r.Floor.Figures}))
	}
	return out
}

func formatFigure(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func machineText(m Machine) string {
	return fmt.Sprintf("%d cores %s, %.0f GiB, load %.1f at start", m.Cores, shortCPU(m.CPU), m.MemoryGB, m.Load1)
}

func shortCPU(s string) string {
	s = strings.ReplaceAll(s, "(R)", "")
	s = strings.ReplaceAll(s, "(TM)", "")
	s = strings.ReplaceAll(s, " CPU", "")
	if i := strings.Index(s, " @"); i > 0 {
		s = s[:i]
	}
	return strings.Join(strings.Fields(s), " ")
}

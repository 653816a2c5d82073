package loadtest

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PlotSteps draws latency (p50, p99, p99.9) against the achieved rate of
// each step, with the workload's p99 target as a dashed line when it has
// one, and saves it as a PNG.
func PlotSteps(r *Result, path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s %s — %s", r.Workload, r.Title, r.Commit)
	p.X.Label.Text = "achieved rate (per second)"
	p.Y.Label.Text = "latency (ms)"
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())

	series := []struct {
		name string
		pick func(Latency) float64
		col  color.RGBA
	}{
		{"p50", func(l Latency) float64 { return l.P50 }, color.RGBA{R: 0x31, G: 0x5a, B: 0xff, A: 0xff}},
		{"p99", func(l Latency) float64 { return l.P99 }, color.RGBA{R: 0xe0, G: 0x60, B: 0x10, A: 0xff}},
		{"p99.9", func(l Latency) float64 { return l.P999 }, color.RGBA{R: 0xb0, G: 0x10, B: 0x40, A: 0xff}},
	}
	maxX := 0.0
	for _, s := range series {
		pts := make(plotter.XYs, 0, len(r.Steps))
		for _, st := range r.Steps {
			if st.Latency.Count == 0 {
				continue
			}
			pts = append(pts, plotter.XY{X: st.Achieved, Y: s.pick(st.Latency)})
			maxX = max(maxX, st.Achieved)
		}
		if len(pts) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		line.Color, points.Color = s.col, s.col
		points.Shape = draw.CircleGlyph{}
		p.Add(line, points)
		p.Legend.Add(s.name, line, points)
	}
	if t, ok := r.Target.Limits["max:p99Ms"]; ok && maxX > 0 {
		ref, err := plotter.NewLine(plotter.XYs{{X: 0, Y: t}, {X: maxX, Y: t}})
		if err != nil {
			return err
		}
		ref.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		ref.Color = color.RGBA{R: 0x20, G: 0x90, B: 0x30, A: 0xff}
		p.Add(ref)
		p.Legend.Add("p99 target", ref)
	}
	return p.Save(8*vg.Inch, 5*vg.Inch, path)
}

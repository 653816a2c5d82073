package loadtest

import (
	"fmt"
	"image/color"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// c1Plot draws the delivery latency (p50 and p99 of each second) over the
// run with a vertical line at each event, and saves it as a PNG.
func c1Plot(r *Result, rec *c1Recorder, start time.Time, events []C1Event, path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("C1 failover — %s", r.Commit)
	if r.Commit == "" {
		p.Title.Text = "C1 failover — " + Commit()
	}
	p.X.Label.Text = "seconds since traffic began"
	p.Y.Label.Text = "delivery latency (ms)"
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	var p50, p99 plotter.XYs
	top := 0.0
	for _, s := range rec.seconds() {
		at := time.Unix(s, 0)
		l := rec.between(true, at, at.Add(time.Second)).Summary()
		x := at.Add(500 * time.Millisecond).Sub(start).Seconds() // the middle of its second
		if x < 0 || l.Count == 0 {
			continue
		}
		p50 = append(p50, plotter.XY{X: x, Y: l.P50})
		p99 = append(p99, plotter.XY{X: x, Y: l.P99})
		top = max(top, l.P99)
	}
	for _, s := range []struct {
		name string
		pts  plotter.XYs
		col  color.RGBA
	}{
		{"p50", p50, color.RGBA{R: 0x31, G: 0x5a, B: 0xff, A: 0xff}},
		{"p99", p99, color.RGBA{R: 0xe0, G: 0x60, B: 0x10, A: 0xff}},
	} {
		if len(s.pts) == 0 {
			continue
		}
		line, err := plotter.NewLine(s.pts)
		if err != nil {
			return err
		}
		line.Color = s.col
		p.Add(line)
		p.Legend.Add(s.name, line)
	}
	for _, e := range events {
		mark, err := plotter.NewLine(plotter.XYs{{X: e.AtSeconds, Y: 0}, {X: e.AtSeconds, Y: top}})
		if err != nil {
			return err
		}
		mark.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		mark.Color = color.RGBA{R: 0x20, G: 0x90, B: 0x30, A: 0xff}
		p.Add(mark)
		labels, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: e.AtSeconds, Y: top}},
			Labels: []string{fmt.Sprintf(" %s %d", e.Name, e.Node)}})
		if err != nil {
			return err
		}
		p.Add(labels)
	}
	return p.Save(10*vg.Inch, 5*vg.Inch, path)
}

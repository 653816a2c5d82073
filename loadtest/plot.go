package loadtest

import (
	"fmt"
	"image/color"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

var (
	kjColor   = color.RGBA{R: 0x31, G: 0x5a, B: 0xff, A: 0xff}
	peerColor = color.RGBA{R: 0xe0, G: 0x60, B: 0x10, A: 0xff}
	refColor  = color.RGBA{R: 0x20, G: 0x90, B: 0x30, A: 0xff}
	// The floor: grey, a yardstick rather than a rival.
	floorColor = color.RGBA{R: 0x70, G: 0x70, B: 0x70, A: 0xff}
)

// PlotSteps saves a PNG of the run: on the left, latency (p50 dashed,
// p99 solid) against the achieved rate of each step on a log scale, with
// the workload's p99 target drawn as a line, kj, the peer and the floor
// (those that ran) on the same axes; on the right, when steps know their
// server CPU, the server's CPU per completed event against the rate, kj
// beside the others.
// A log scale keeps everything under the target readable next to the
// saturated steps' seconds.
func PlotSteps(r *Result, path string) error {
	lat := plot.New()
	lat.Title.Text = fmt.Sprintf("%s latency — %s", r.Workload, r.Commit)
	lat.X.Label.Text = "achieved rate (per second)"
	lat.Y.Label.Text = "latency (ms, log scale)"
	lat.Y.Scale = plot.LogScale{}
	lat.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	lat.Legend.Top, lat.Legend.Left = true, true
	lat.Add(plotter.NewGrid())

	cost := plot.New()
	cost.Title.Text = fmt.Sprintf("%s server CPU per event", r.Workload)
	cost.X.Label.Text = "achieved rate (per second)"
	cost.Y.Label.Text = "server CPU (µs per event)"
	cost.Legend.Top = true
	cost.Add(plotter.NewGrid())

	type run struct {
		name  string
		steps []StepResult
		col   color.RGBA
	}
	runs := []run{{"kj", r.Steps, kjColor}}
	if r.Peer != nil {
		runs = append(runs, run{r.Peer.Name, r.Peer.Steps, peerColor})
	}
	if r.Floor != nil {
		runs = append(runs, run{"floor", r.Floor.Steps, floorColor})
	}
	maxX, costs := 0.0, 0
	for _, ru := range runs {
		for _, q := range []struct {
			name   string
			pick   func(Latency) float64
			dashed bool
		}{{"p50", func(l Latency) float64 { return l.P50 }, true}, {"p99", func(l Latency) float64 { return l.P99 }, false}} {
			pts := make(plotter.XYs, 0, len(ru.steps))
			for _, st := range ru.steps {
				if st.Latency.Count == 0 {
					continue
				}
				// A log axis has no zero: sub-0.1 ms figures sit on its floor.
				pts = append(pts, plotter.XY{X: st.Achieved, Y: max(q.pick(st.Latency), 0.1)})
				maxX = max(maxX, st.Achieved)
			}
			if len(pts) == 0 {
				continue
			}
			if err := addLine(lat, ru.name+" "+q.name, pts, ru.col, q.dashed); err != nil {
				return err
			}
		}
		pts := make(plotter.XYs, 0, len(ru.steps))
		for _, st := range ru.steps {
			if st.ServerCPUSec > 0 && st.Done > 0 {
				pts = append(pts, plotter.XY{X: st.Achieved, Y: st.ServerCPUSec / float64(st.Done) * 1e6})
			}
		}
		if len(pts) > 0 {
			costs++
			if err := addLine(cost, ru.name, pts, ru.col, false); err != nil {
				return err
			}
		}
	}
	target, ok := r.Target.Limits["max:p99Ms"]
	if !ok {
		target = r.Target.LatencyMs
	}
	if target > 0 && maxX > 0 {
		ref, err := plotter.NewLine(plotter.XYs{{X: 0, Y: target}, {X: maxX, Y: target}})
		if err != nil {
			return err
		}
		ref.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		ref.Color = refColor
		lat.Add(ref)
		lat.Legend.Add(fmt.Sprintf("p99 target %g ms", target), ref)
	}
	cost.Y.Min = 0
	if costs == 0 {
		return lat.Save(8*vg.Inch, 5*vg.Inch, path)
	}
	img := vgimg.New(14*vg.Inch, 5*vg.Inch)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Inch / 4, PadTop: vg.Inch / 8, PadBottom: vg.Inch / 8, PadLeft: vg.Inch / 8, PadRight: vg.Inch / 8}
	canvases := plot.Align([][]*plot.Plot{{lat, cost}}, tiles, dc)
	lat.Draw(canvases[0][0])
	cost.Draw(canvases[0][1])
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func addLine(p *plot.Plot, name string, pts plotter.XYs, col color.RGBA, dashed bool) error {
	line, points, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	line.Color, points.Color = col, col
	if dashed {
		line.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		points.Shape = draw.BoxGlyph{}
	} else {
		points.Shape = draw.CircleGlyph{}
	}
	p.Add(line, points)
	p.Legend.Add(name, line, points)
	return nil
}

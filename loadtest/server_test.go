package loadtest

import (
	"os"
	"runtime"
	"testing"
)

// openFDs must follow the descriptors a process opens and closes: the
// server's peak of descriptors (W1's figure) is read with it.
func TestOpenFDsCountsDescriptors(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	before, err := openFDs(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	var files []*os.File
	for range 5 {
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	during, err := openFDs(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		f.Close()
	}
	after, err := openFDs(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if during != before+5 || after != before {
		t.Fatalf("descriptors: %d before, %d with 5 more open, %d after closing them; want %d, %d", before, during, after, before+5, before)
	}
}

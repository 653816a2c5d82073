package bus

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// natsServer runs a NATS server of the test's own on port (the shared one
// must not be stopped), until stop.
func natsServer(t *testing.T, port int) (stop func()) {
	t.Helper()
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		if bin = "/usr/sbin/nats-server"; exec.Command(bin, "--version").Run() != nil {
			t.Fatal("nats-server is missing (Debian package nats-server; `make services` installs it)")
		}
	}
	cmd := exec.Command(bin, "-a", "127.0.0.1", "-p", fmt.Sprint(port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("nats-server did not listen")
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop = func() {
		_ = cmd.Process.Signal(syscall.SIGKILL)
		<-done
	}
	t.Cleanup(stop)
	return stop
}

// A NATS bus whose server is killed and started again runs its resume
// hooks once it is connected and subscribed again: a message published
// after the hook ran reaches the subscription made before the outage.
func TestNATSResumeRunsAfterReconnect(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	stop := natsServer(t, port)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	b, err := NewNATS(url, "kj-resume-test")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var resumed atomic.Int32
	OnResume(b, func() { resumed.Add(1) })
	got := make(chan string, 16)
	if _, err := b.Subscribe("resume.test", func(_ string, data []byte) { got <- string(data) }); err != nil {
		t.Fatal(err)
	}
	stop()
	time.Sleep(300 * time.Millisecond) // the client notices the lost connection
	if resumed.Load() != 0 {
		t.Fatal("resumed while the server was down")
	}
	natsServer(t, port)
	deadline := time.Now().Add(15 * time.Second)
	for resumed.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the resume hook did not run after the server came back")
		}
		time.Sleep(20 * time.Millisecond)
	}
	other, err := NewNATS(url, "kj-resume-test-2")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Publish(context.Background(), "resume.test", []byte("after")); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-got:
		if m != "after" {
			t.Fatalf("got %q", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the subscription made before the outage got nothing after the resume")
	}
}

//go:build linux

package rawio

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

const supported = true

// Read is read(2) on fd as a raw call.
func Read(fd int, p []byte) (int, error) { return call(unix.SYS_READ, fd, p) }

// Write is write(2) on fd as a raw call: as much of p as fd takes now.
func Write(fd int, p []byte) (int, error) { return call(unix.SYS_WRITE, fd, p) }

// call makes read(2) or write(2), trap, on fd and p.
func call(trap uintptr, fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, _, errno := syscall.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

// EpollAsk takes the ready events of the epoll set epfd without waiting
// (epoll_pwait with a zero timeout), as a raw call.
func EpollAsk(epfd int, events []unix.EpollEvent) (int, error) {
	if len(events) == 0 {
		return 0, nil
	}
	n, _, errno := syscall.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), 0, 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

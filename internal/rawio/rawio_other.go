//go:build !linux

package rawio

import "errors"

// supported is false here: Of finds no descriptor and Wrap returns its
// connection as it is, so nothing calls Read or Write.
const supported = false

// Read is not made here.
func Read(int, []byte) (int, error) { return 0, errors.ErrUnsupported }

// Write is not made here.
func Write(int, []byte) (int, error) { return 0, errors.ErrUnsupported }

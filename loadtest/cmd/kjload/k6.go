package main

import "context"

func k6(ctx context.Context, args []string) error { return nil }

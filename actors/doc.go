// Package actors holds one package per actor kind (ledger, window, ...);
// this directory's own tests measure the actor core itself, protoactor-go
// as the engine uses it (workload W7 of docs/PERFORMANCE.md):
//
//	go test -run '^$' -bench W7 -benchmem ./actors/
package actors

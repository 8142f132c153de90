//go:build !race

package server

// raceBuild: see allocs_race_test.go.
const raceBuild = false

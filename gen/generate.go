// Package gen holds what oapi-codegen makes of ../openapi.yaml: the models, the Echo strict-server
// interface and the embedded spec. Nothing here is edited by hand: `make generate` rewrites every
// *.gen.go file. No Go client is generated: nothing in quire calls its own API from Go (the tests
// speak HTTP through their harness, the compat suite through GitBook's own JS clients), and the
// 44,600 lines it took were compiled and vetted for nobody.
package gen

//go:generate go tool oapi-codegen -config cfg-models.yaml ../openapi.yaml
//go:generate go tool oapi-codegen -config cfg-server.yaml ../openapi.yaml
//go:generate go tool oapi-codegen -config cfg-spec.yaml ../openapi.yaml

// Package gen holds what oapi-codegen makes of ../openapi.yaml. Nothing here is edited by hand:
// `make generate` rewrites every *.gen.go file.
package gen

//go:generate go tool oapi-codegen -config cfg-models.yaml ../openapi.yaml
//go:generate go tool oapi-codegen -config cfg-server.yaml ../openapi.yaml
//go:generate go tool oapi-codegen -config cfg-spec.yaml ../openapi.yaml
//go:generate go tool oapi-codegen -config cfg-client.yaml ../openapi.yaml

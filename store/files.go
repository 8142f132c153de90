package store

import (
	_ "image/gif" // image dimensions of uploaded GIFs
	_ "image/jpeg"
	_ "image/png"
)

// RevisionFile is a file of a revision.
type RevisionFile struct {
	ID          string
	Name        string
	ContentType string
	Size        int64
	SHA256      string // hex: the download URL names the bytes by it
	Width       *int
	Height      *int
}

// FileUpload is a file an insert_files change brings.
type FileUpload struct {
	ID          string // given when the batch is applied
	Ref         *string
	Name        string
	ContentType string
	Data        []byte
}

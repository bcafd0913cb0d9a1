package store

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"maestro/backend/chat"
)

// Attachment bytes (a file part's or a resource part's Data of blobMin
// bytes or more) are kept once, in blobs/<ref>, named by their hash
// (chat.BlobRef), and the stored message keeps the part's Ref and Size in
// their place. blobowners/<ref>/<sessionID> records which sessions hold a
// ref, so deleting the last of them deletes the bytes. Messages (the
// history a request is rendered from) puts the bytes back; pages read for
// the UI keep only Ref, and Blob or SessionBlob reads the bytes on demand.

var (
	bucketBlobs      = []byte("blobs")
	bucketBlobOwners = []byte("blobowners")
)

// blobMin is the size from which attachment bytes leave the message
// record: smaller ones cost less inline than as a reference.
const blobMin = 4 << 10

// Blob returns the bytes stored under ref.
func (s *Store) Blob(ctx context.Context, ref string) ([]byte, error) {
	var out []byte
	err := s.view(ctx, func(tx *bolt.Tx) error {
		blobs, err := mustBucket(tx, bucketBlobs)
		if err != nil {
			return err
		}
		raw := blobs.Get([]byte(ref))
		if raw == nil {
			return chat.ErrNotFound
		}
		out = bytes.Clone(raw)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: blob %s: %w", ref, err)
	}
	return out, nil
}

// SessionBlob returns the bytes stored under ref if sessionID holds them
// (one of its messages names ref). Bytes over limit are refused
// (ErrInvalid, naming their size) without being copied; an unknown ref, or
// one the session does not hold, is ErrNotFound.
func (s *Store) SessionBlob(ctx context.Context, sessionID, ref string, limit int) ([]byte, error) {
	var out []byte
	err := s.view(ctx, func(tx *bolt.Tx) error {
		blobs, owners := tx.Bucket(bucketBlobs), tx.Bucket(bucketBlobOwners)
		if blobs == nil || owners == nil {
			return chat.ErrNotFound
		}
		holders := owners.Bucket([]byte(ref))
		if holders == nil {
			return chat.ErrNotFound
		}
		if k, _ := holders.Cursor().Seek([]byte(sessionID)); !bytes.Equal(k, []byte(sessionID)) {
			return chat.ErrNotFound
		}
		raw := blobs.Get([]byte(ref))
		if raw == nil {
			return chat.ErrNotFound
		}
		if len(raw) > limit {
			return chat.E(chat.ErrInvalid, "%s, over the %s read at once", chat.HumanSize(int64(len(raw))), chat.HumanSize(int64(limit)))
		}
		out = bytes.Clone(raw)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: blob %s of session %s: %w", ref, sessionID, err)
	}
	return out, nil
}

// stashBlobs returns msg as it is stored: the bytes of its large
// attachments moved into the blobs bucket, owned by the session. msg
// itself is not changed (its parts are copied when one moves).
func stashBlobs(tx *bolt.Tx, sessionID string, msg chat.Message) (chat.Message, error) {
	copied := false
	for i, p := range msg.Parts {
		next, err := stashPart(tx, sessionID, p)
		if err != nil {
			return chat.Message{}, err
		}
		if next == nil {
			continue
		}
		if !copied {
			msg.Parts = append(chat.Parts(nil), msg.Parts...)
			copied = true
		}
		msg.Parts[i] = next
	}
	return msg, nil
}

// stashPart moves one part's bytes (nil: the part stays as it is). A part
// that already names stored bytes is recorded as the session's too.
func stashPart(tx *bolt.Tx, sessionID string, p chat.Part) (chat.Part, error) {
	switch p := p.(type) {
	case chat.FilePart:
		ref, size, err := stashData(tx, sessionID, p.Data, p.Ref)
		if ref == "" || err != nil {
			return nil, err
		}
		p.Data, p.Ref, p.Size = "", ref, size
		return p, nil
	case chat.ResourcePart:
		ref, size, err := stashData(tx, sessionID, p.Data, p.Ref)
		if ref == "" || err != nil {
			return nil, err
		}
		p.Data, p.Ref, p.Size = "", ref, max(p.Size, size)
		return p, nil
	}
	return nil, nil
}

// stashData stores base64 data of blobMin bytes or more and returns its
// ref and size ("" when it stays inline: small, or not base64). Data that
// is already a ref is only recorded as owned.
func stashData(tx *bolt.Tx, sessionID, data, ref string) (string, int64, error) {
	if data == "" {
		if ref != "" {
			return "", 0, own(tx, ref, sessionID)
		}
		return "", 0, nil
	}
	if chat.DecodedLen(data) < blobMin {
		return "", 0, nil
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return "", 0, nil // kept as it came: the renderers will say
	}
	ref, err = putBlob(tx, sessionID, raw)
	return ref, int64(len(raw)), err
}

// putBlob stores raw (once) and records the session as its owner.
func putBlob(tx *bolt.Tx, sessionID string, raw []byte) (string, error) {
	ref := chat.BlobRef(raw)
	blobs, err := mustBucket(tx, bucketBlobs)
	if err != nil {
		return "", err
	}
	if blobs.Get([]byte(ref)) == nil {
		if err := blobs.Put([]byte(ref), raw); err != nil {
			return "", fmt.Errorf("store blob %s: %w", ref, err)
		}
	}
	return ref, own(tx, ref, sessionID)
}

// own records sessionID as an owner of ref, if ref is stored.
func own(tx *bolt.Tx, ref, sessionID string) error {
	blobs, err := mustBucket(tx, bucketBlobs)
	if err != nil {
		return err
	}
	if blobs.Get([]byte(ref)) == nil {
		return nil
	}
	owners, err := mustBucket(tx, bucketBlobOwners)
	if err != nil {
		return err
	}
	b, err := owners.CreateBucketIfNotExists([]byte(ref))
	if err != nil {
		return err
	}
	return b.Put([]byte(sessionID), nil)
}

// fillBlobs puts the stored bytes back into msgs' parts that name them. A
// ref whose bytes are gone is left as it is (the renderers note it).
func fillBlobs(tx *bolt.Tx, msgs []chat.Message) {
	blobs := tx.Bucket(bucketBlobs)
	if blobs == nil {
		return
	}
	encoded := map[string]string{} // the same bytes in several parts are encoded once
	load := func(ref string) string {
		if s, ok := encoded[ref]; ok {
			return s
		}
		var s string
		if raw := blobs.Get([]byte(ref)); raw != nil {
			s = base64.StdEncoding.EncodeToString(raw) // a copy, valid after the transaction
		}
		encoded[ref] = s
		return s
	}
	for i := range msgs {
		copied := false
		for k, p := range msgs[i].Parts {
			var next chat.Part
			switch p := p.(type) {
			case chat.FilePart:
				if p.Ref != "" && p.Data == "" {
					p.Data = load(p.Ref)
					next = p
				}
			case chat.ResourcePart:
				if p.Ref != "" && p.Data == "" {
					p.Data = load(p.Ref)
					next = p
				}
			}
			if next == nil {
				continue
			}
			if !copied {
				msgs[i].Parts = append(chat.Parts(nil), msgs[i].Parts...)
				copied = true
			}
			msgs[i].Parts[k] = next
		}
	}
}

// refMarker is how a stored part that names bytes starts its ref.
var refMarker = []byte(`"ref":"sha256-`)

// dropSessionBlobs forgets the session as an owner of every blob its
// messages name, and deletes the blobs no session owns any more.
func dropSessionBlobs(tx *bolt.Tx, sessionID string, msgs *bolt.Bucket) error {
	if msgs == nil {
		return nil
	}
	refs := map[string]bool{}
	err := msgs.ForEach(func(k, raw []byte) error {
		if raw == nil || !bytes.Contains(raw, refMarker) {
			return nil
		}
		var m struct {
			Parts []struct {
				Ref string `json:"ref"`
			} `json:"parts"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("decode message %q: %w", k, err)
		}
		for _, p := range m.Parts {
			if p.Ref != "" {
				refs[p.Ref] = true
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	owners := tx.Bucket(bucketBlobOwners)
	blobs := tx.Bucket(bucketBlobs)
	if owners == nil || blobs == nil {
		return nil
	}
	for ref := range refs {
		b := owners.Bucket([]byte(ref))
		if b == nil {
			continue
		}
		if err := b.Delete([]byte(sessionID)); err != nil {
			return err
		}
		if k, _ := b.Cursor().First(); k != nil {
			continue
		}
		if err := owners.DeleteBucket([]byte(ref)); err != nil {
			return err
		}
		if err := blobs.Delete([]byte(ref)); err != nil {
			return err
		}
	}
	return nil
}

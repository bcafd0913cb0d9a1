// Package store keeps Maestro's state in one bbolt file.
//
// The file lives in os.UserConfigDir()/Maestro/maestro.db, or in
// $MAESTRO_DATA_DIR when that is set (tests use a temporary folder). It is
// opened with a timeout, so a second process on the same file gets a clear
// "in use" error instead of hanging. Only the owner can reach either: the
// folder is 0700 and the file 0600, and Open tightens an existing folder or
// file that is looser.
//
// Schema (bucket keys are the package variables below):
//
//	meta/
//	    app         -> "maestro"                 marks the file as ours
//	    version     -> uint64, big-endian        last migration applied
//	sessions/
//	    <sessionID> -> JSON chat.Session         head: seq of the active
//	                                             branch's last message;
//	                                             usage: the sum of its
//	                                             messages' usage (every
//	                                             branch), kept by the
//	                                             message methods
//	messages/
//	    <sessionID>/                             one bucket per session
//	        <seq>   -> JSON chat.Message         seq: uint64 big-endian from
//	                                             NextSequence, so a cursor
//	                                             walks in chronological order;
//	                                             parent: seq of the message
//	                                             before it on its branch
//	                                             (absent for a first message)
//	connectors/
//	    <connectorID> -> JSON connector config   (owned by backend/mcp)
//	registry/
//	    <sessionID> -> JSON registry snapshot    (owned by backend/tools)
//	settings/
//	    <key>       -> JSON value
//	catalogs/
//	    <provider>  -> JSON model list           (owned by backend/providers/
//	                                             catalog): the models the
//	                                             account can use, when fetched
//	blobs/
//	    <ref>       -> raw bytes                 an attachment's content, once:
//	                                             ref is chat.BlobRef, "sha256-"
//	                                             and the hex hash of the bytes
//	blobowners/
//	    <ref>/
//	        <sessionID> -> empty                 the sessions whose messages
//	                                             name ref; the last one deleted
//	                                             deletes the bytes
//	tasks/
//	    <connectorID>/<taskID> -> JSON task      (owned by backend/mcp): MCP
//	                                             tasks, kept so a task still
//	                                             running at a restart is
//	                                             followed again or reported lost
//	trust/
//	    <kind>/<key> -> JSON record              (owned by backend/tools): the
//	                                             user's standing tool decisions,
//	                                             pinned definitions and grants
//	                                             for every chat
//	audit/
//	    <connectorID>/                           one bucket per connector
//	        <seq>   -> JSON audit record         (owned by backend/mcp): one
//	                                             tool call each, seq from
//	                                             NextSequence; the oldest go
//	                                             past AuditKeep records
//
// A message may be a summary node (chat.RoleSummary): the agent stores one
// on the branch when it compacts the conversation, and it stands in for the
// older messages in requests only; the store keeps it like any message.
//
// A session's messages form a tree (see branches.go). Editing a message
// stores a sibling with the same parent (ForkMessage) and keeps the old
// continuation; the session's head says which branch is shown and sent.
// Messages returns the path from the root to the head. A parent is always
// older than its children, so one cursor pass from the newest key meets the
// path in reverse order, decoding nothing off it.
//
// An attachment (a file part's or resource part's Data) of 4 KiB or more is
// stored apart (blobs.go): the message record keeps its Ref and Size.
// Messages, which the agent renders requests from, puts the bytes back;
// pages read for the UI keep only the ref, and Blob (any ref) or SessionBlob
// (a ref the session holds, up to a size) reads the bytes.
//
// Reading a long branch need not read all of it: ActiveTail decodes only
// the end of the branch a caller asks for (the agent reads back to the
// latest summary node), and PathMessages yields the branch message by
// message in short transactions (export).
//
// Values are JSON through getJSON and putJSON. Bytes read from bbolt are only
// valid inside their transaction, so every read decodes or copies before the
// transaction ends. Secrets never enter this file: tokens and keys live in the
// OS keychain (backend/auth).
//
// Migrations are an ordered list run in a single Update transaction when the
// file is opened; a failure rolls all of them back and leaves the file as it
// was. A file that is not a bbolt database, or is a bbolt database written by
// another program, is reported with its path and never written to.
//
// Concurrency: a *Store is safe for concurrent use. bbolt serialises writers
// and lets readers run alongside them; the Store holds no other state. Close
// must be called once, after every caller has finished (the app closes it
// last, on shutdown).
package store

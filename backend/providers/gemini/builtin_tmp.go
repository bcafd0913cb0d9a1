package gemini

import "maestro/backend/chat"

// Placeholders until the wire-gemini branch lands its built-in table.

func Builtin() []chat.ModelInfo { return nil }

func Lookup(id string) chat.ModelInfo { return chat.ModelInfo{} }

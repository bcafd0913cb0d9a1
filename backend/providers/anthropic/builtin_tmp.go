package anthropic

import "maestro/backend/chat"

// Placeholders until the wire-anthropic branch lands its built-in table.

func Builtin() []chat.ModelInfo { return nil }

func Lookup(id string) chat.ModelInfo { return chat.ModelInfo{} }

package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// docs are the app package's doc comments and parameter names, read from
// its source: reflection knows the shapes, not the words.
type docs struct {
	types  map[string]string   // type name → doc
	fields map[string]string   // "Type.Field" → doc
	funcs  map[string]string   // "Type.Method" → doc
	params map[string][]string // "Type.Method" → parameter names
	consts map[string]string   // const name → doc
	events map[string]string   // an app.Event constant's value → its name
}

// readDocs reads the packages in dirs; a name documented in an earlier
// one keeps that doc.
func readDocs(dirs ...string) (*docs, error) {
	d := &docs{types: map[string]string{}, fields: map[string]string{}, funcs: map[string]string{},
		params: map[string][]string{}, consts: map[string]string{}, events: map[string]string{}}
	var names []string
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return nil, err
		}
		names = append(names, files...)
	}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", name, err)
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.GenDecl:
				d.genDecl(decl)
			case *ast.FuncDecl:
				d.funcDecl(decl)
			}
		}
	}
	return d, nil
}

func (d *docs) genDecl(decl *ast.GenDecl) {
	for _, spec := range decl.Specs {
		switch spec := spec.(type) {
		case *ast.TypeSpec:
			doc := spec.Doc
			if doc == nil && len(decl.Specs) == 1 {
				doc = decl.Doc
			}
			if _, seen := d.types[spec.Name.Name]; seen {
				continue // documented by an earlier package
			}
			d.types[spec.Name.Name] = text(doc)
			if st, ok := spec.Type.(*ast.StructType); ok {
				for _, field := range st.Fields.List {
					for _, n := range field.Names {
						d.fields[spec.Name.Name+"."+n.Name] = text(field.Doc, field.Comment)
					}
				}
			}
		case *ast.ValueSpec:
			for i, n := range spec.Names {
				d.consts[n.Name] = text(spec.Doc, spec.Comment)
				if v, ok := eventValue(spec, i); ok {
					d.events[v] = n.Name
				}
			}
		}
	}
}

func (d *docs) funcDecl(fn *ast.FuncDecl) {
	if fn.Recv == nil || len(fn.Recv.List) != 1 {
		return
	}
	recv := fn.Recv.List[0].Type
	if star, ok := recv.(*ast.StarExpr); ok {
		recv = star.X
	}
	id, ok := recv.(*ast.Ident)
	if !ok {
		return
	}
	key := id.Name + "." + fn.Name.Name
	d.funcs[key] = text(fn.Doc)
	var params []string
	for _, p := range fn.Type.Params.List {
		for _, n := range p.Names {
			params = append(params, n.Name)
		}
	}
	d.params[key] = params
}

// eventValue is the value of the i-th name of spec when spec declares
// constants of type Event with string literals.
func eventValue(spec *ast.ValueSpec, i int) (string, bool) {
	typ, ok := spec.Type.(*ast.Ident)
	if !ok || typ.Name != "Event" || i >= len(spec.Values) {
		return "", false
	}
	lit, ok := spec.Values[i].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	v, err := strconv.Unquote(lit.Value)
	return v, err == nil
}

// text joins comment groups into plain text.
func text(groups ...*ast.CommentGroup) string {
	var parts []string
	for _, g := range groups {
		if t := strings.TrimSpace(g.Text()); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}

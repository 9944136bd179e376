// Package kubecheck decodes the Kubernetes manifests of configs/ strictly
// into the Kubernetes API's Go types, as the API server would read them:
// a field that is unknown, misspelled or in the wrong case is an error, not
// silently dropped. It is a module of its own so that the judge does not
// depend on the Kubernetes API.
package kubecheck

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// Object is one decoded document of a manifest.
type Object struct {
	Doc  int    // its position in the file, from 1, counting empty documents
	Kind string // apiVersion/kind
	// One of *batchv1.Job, *corev1.Pod, *corev1.PersistentVolumeClaim.
	Value any
}

// newObject returns the Go type for an apiVersion and kind, or nil.
func newObject(tm metav1.TypeMeta) any {
	switch tm.APIVersion + "/" + tm.Kind {
	case "batch/v1/Job":
		return &batchv1.Job{}
	case "v1/Pod":
		return &corev1.Pod{}
	case "v1/PersistentVolumeClaim":
		return &corev1.PersistentVolumeClaim{}
	}
	return nil
}

// Decode decodes every document of a YAML stream ("---" between documents).
// Documents holding nothing (only comments) are skipped.
func Decode(data []byte) ([]Object, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var out []Object
	for n := 1; ; n++ {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", n, err)
		}
		o, err := decodeDoc(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", n, err)
		}
		if o.Value != nil {
			o.Doc = n
			out = append(out, o)
		}
	}
}

func decodeDoc(doc []byte) (Object, error) {
	// YAML to JSON, refusing duplicate keys.
	js, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return Object{}, err
	}
	if string(bytes.TrimSpace(js)) == "null" {
		return Object{}, nil
	}
	var tm metav1.TypeMeta
	if err := yaml.Unmarshal(doc, &tm); err != nil {
		return Object{}, err
	}
	kind := tm.APIVersion + "/" + tm.Kind
	v := newObject(tm)
	if v == nil {
		return Object{}, fmt.Errorf("%q: not a kind this check knows", kind)
	}
	// The YAML library's strict decoding: unknown fields and duplicate keys.
	if err := yaml.UnmarshalStrict(doc, v); err != nil {
		return Object{}, fmt.Errorf("%s: %w", kind, err)
	}
	// encoding/json matches field names whatever their case, the API server
	// does not: decode again as it does, case-sensitively.
	again := newObject(tm)
	strict, err := kjson.UnmarshalStrict(js, again, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	if err != nil {
		return Object{}, fmt.Errorf("%s: %w", kind, err)
	}
	if len(strict) > 0 {
		return Object{}, fmt.Errorf("%s: %w", kind, errors.Join(strict...))
	}
	return Object{Kind: kind, Value: v}, nil
}

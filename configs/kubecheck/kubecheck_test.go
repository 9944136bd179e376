package kubecheck

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// manifest is a decoded document and the file it came from.
type manifest struct {
	file string
	Object
}

// manifests decodes every configs/*.yaml; a file that does not decode
// fails the test.
func manifests(t *testing.T) []manifest {
	t.Helper()
	files, err := filepath.Glob("../*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no manifests in configs/")
	}
	var all []manifest
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := Decode(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(objs) == 0 {
			t.Errorf("%s: no Kubernetes object", f)
		}
		for _, o := range objs {
			all = append(all, manifest{filepath.Base(f), o})
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return all
}

func (m manifest) String() string {
	return m.file + " (" + m.Kind + ", document " + strconv.Itoa(m.Doc) + ")"
}

// pod is a pod spec of a manifest: a Pod's or a Job's template.
type pod struct {
	where string
	spec  *corev1.PodSpec
	job   *batchv1.Job // the Job it belongs to, if any
}

func pods(ms []manifest) []pod {
	var out []pod
	for _, m := range ms {
		switch v := m.Value.(type) {
		case *batchv1.Job:
			out = append(out, pod{m.String() + " job " + v.Name, &v.Spec.Template.Spec, v})
		case *corev1.Pod:
			out = append(out, pod{m.String() + " pod " + v.Name, &v.Spec, nil})
		}
	}
	return out
}

func jobs(ms []manifest) map[string]*batchv1.Job {
	out := map[string]*batchv1.Job{}
	for _, m := range ms {
		if j, ok := m.Value.(*batchv1.Job); ok {
			out[j.Name] = j
		}
	}
	return out
}

// script is what a container runs, its command and arguments together.
func script(c corev1.Container) string {
	return strings.Join(append(slices.Clone(c.Command), c.Args...), " ")
}

// runsBots says whether a container runs the judge's sandbox.
var runsBots = regexp.MustCompile(`\bjudge\s+(tournament|match|sprt)\b`)

func env(c corev1.Container, name string) (corev1.EnvVar, bool) {
	for _, e := range c.Env {
		if e.Name == name {
			return e, true
		}
	}
	return corev1.EnvVar{}, false
}

func TestManifestsDecodeStrictly(t *testing.T) {
	ms := manifests(t)
	kinds := map[string]int{}
	for _, m := range ms {
		kinds[m.Kind]++
	}
	t.Logf("%d objects: %v", len(ms), kinds)
	for _, k := range []string{"batch/v1/Job", "v1/PersistentVolumeClaim", "v1/Pod"} {
		if kinds[k] == 0 {
			t.Errorf("no %s in configs/", k)
		}
	}
}

// The sandbox needs a /proc it can mount again (procMount Unmasked), which
// the API allows only in a user namespace of the pod's own (hostUsers
// false), and profiles that let it make namespaces and mounts. Containers
// that run no bots get none of that.
func TestPodsRunInUserNamespaces(t *testing.T) {
	ps := pods(manifests(t))
	sandboxes := 0
	for _, p := range ps {
		if p.spec.HostUsers == nil || *p.spec.HostUsers {
			t.Errorf("%s: hostUsers is not false", p.where)
		}
		if sc := p.spec.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
			t.Errorf("%s: runAsNonRoot is not true", p.where)
		}
		if p.spec.RestartPolicy != corev1.RestartPolicyNever {
			t.Errorf("%s: restartPolicy %q, want Never", p.where, p.spec.RestartPolicy)
		}
		all := append(slices.Clone(p.spec.InitContainers), p.spec.Containers...)
		if len(all) == 0 {
			t.Errorf("%s: no containers", p.where)
		}
		for _, c := range all {
			where := p.where + " container " + c.Name
			sc := c.SecurityContext
			if sc == nil {
				t.Errorf("%s: no securityContext", where)
				continue
			}
			if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
				t.Errorf("%s: allowPrivilegeEscalation is not false", where)
			}
			if sc.Privileged != nil && *sc.Privileged {
				t.Errorf("%s: privileged", where)
			}
			if sc.Capabilities != nil && len(sc.Capabilities.Add) > 0 && !ownsVolume(c) {
				t.Errorf("%s: adds capabilities %v", where, sc.Capabilities.Add)
			}
			unmasked := sc.ProcMount != nil && *sc.ProcMount == corev1.UnmaskedProcMount
			if sc.ProcMount != nil && *sc.ProcMount != corev1.UnmaskedProcMount && *sc.ProcMount != corev1.DefaultProcMount {
				t.Errorf("%s: procMount %q is neither Default nor Unmasked", where, *sc.ProcMount)
			}
			if !runsBots.MatchString(script(c)) {
				if unmasked {
					t.Errorf("%s: runs no bots but has an unmasked /proc", where)
				}
				if sc.SeccompProfile != nil && sc.SeccompProfile.Type == corev1.SeccompProfileTypeUnconfined {
					t.Errorf("%s: runs no bots but is not confined by seccomp", where)
				}
				if sc.AppArmorProfile != nil && sc.AppArmorProfile.Type == corev1.AppArmorProfileTypeUnconfined {
					t.Errorf("%s: runs no bots but is not confined by AppArmor", where)
				}
				continue
			}
			sandboxes++
			if !unmasked {
				t.Errorf("%s: runs bots without procMount Unmasked: the sandbox falls to level basic", where)
			}
			switch s := sc.SeccompProfile; {
			case s == nil, s.Type == corev1.SeccompProfileTypeRuntimeDefault:
				t.Errorf("%s: runs bots under the runtime's default seccomp profile, which refuses new namespaces", where)
			case s.Type == corev1.SeccompProfileTypeLocalhost && (s.LocalhostProfile == nil || *s.LocalhostProfile == ""):
				t.Errorf("%s: a Localhost seccomp profile without localhostProfile", where)
			case s.Type != corev1.SeccompProfileTypeUnconfined && s.Type != corev1.SeccompProfileTypeLocalhost:
				t.Errorf("%s: seccomp profile type %q", where, s.Type)
			}
			switch a := sc.AppArmorProfile; {
			case a == nil, a.Type == corev1.AppArmorProfileTypeRuntimeDefault:
				t.Errorf("%s: runs bots under the runtime's default AppArmor profile, which refuses mounts", where)
			case a.Type == corev1.AppArmorProfileTypeLocalhost && (a.LocalhostProfile == nil || *a.LocalhostProfile == ""):
				t.Errorf("%s: a Localhost AppArmor profile without localhostProfile", where)
			case a.Type != corev1.AppArmorProfileTypeUnconfined && a.Type != corev1.AppArmorProfileTypeLocalhost:
				t.Errorf("%s: AppArmor profile type %q", where, a.Type)
			}
		}
	}
	if sandboxes == 0 {
		t.Error("no container runs judge tournament")
	}
}

// Every Job's podFailurePolicy must be one the API server accepts.
func TestPodFailurePoliciesAreValid(t *testing.T) {
	for name, j := range jobs(manifests(t)) {
		pfp := j.Spec.PodFailurePolicy
		if pfp == nil {
			t.Errorf("job %s: no podFailurePolicy", name)
			continue
		}
		containers := map[string]bool{}
		for _, c := range j.Spec.Template.Spec.Containers {
			containers[c.Name] = true
		}
		for i, r := range pfp.Rules {
			where := "job " + name + " podFailurePolicy rule " + strconv.Itoa(i)
			switch r.Action {
			case batchv1.PodFailurePolicyActionFailJob, batchv1.PodFailurePolicyActionIgnore, batchv1.PodFailurePolicyActionCount:
			case batchv1.PodFailurePolicyActionFailIndex:
				if j.Spec.BackoffLimitPerIndex == nil {
					t.Errorf("%s: FailIndex without backoffLimitPerIndex", where)
				}
			default:
				t.Errorf("%s: action %q", where, r.Action)
			}
			if (r.OnExitCodes == nil) == (len(r.OnPodConditions) == 0) {
				t.Errorf("%s: needs exactly one of onExitCodes and onPodConditions", where)
			}
			if e := r.OnExitCodes; e != nil {
				if e.ContainerName != nil && !containers[*e.ContainerName] {
					t.Errorf("%s: no container %q", where, *e.ContainerName)
				}
				if e.Operator != batchv1.PodFailurePolicyOnExitCodesOpIn && e.Operator != batchv1.PodFailurePolicyOnExitCodesOpNotIn {
					t.Errorf("%s: operator %q", where, e.Operator)
				}
				if len(e.Values) == 0 {
					t.Errorf("%s: no values", where)
				}
				for k, v := range e.Values {
					if k > 0 && e.Values[k-1] >= v {
						t.Errorf("%s: values %v are not ordered and unique", where, e.Values)
					}
					if v == 0 && e.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn {
						t.Errorf("%s: 0 with operator In", where)
					}
				}
			}
		}
		if j.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
			t.Errorf("job %s: podFailurePolicy needs restartPolicy Never", name)
		}
	}
}

// The tournament's Job: one index per shard, each retried on its own, and
// an index that fails for good leaves a mark the merge sees.
func TestTournamentJobFailsIndexes(t *testing.T) {
	ms := manifests(t)
	j := jobs(ms)["tournament"]
	if j == nil {
		t.Fatal("no job tournament")
	}
	s := j.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Error("completionMode is not Indexed")
	}
	if s.Completions == nil || *s.Completions < 1 {
		t.Fatal("no completions")
	}
	if s.BackoffLimitPerIndex == nil {
		t.Fatal("no backoffLimitPerIndex")
	}
	if s.PodFailurePolicy == nil {
		t.Fatal("no podFailurePolicy")
	}
	var failIndex []int32
	ignoresDisruption := false
	for _, r := range s.PodFailurePolicy.Rules {
		if r.Action == batchv1.PodFailurePolicyActionFailIndex && r.OnExitCodes != nil && r.OnExitCodes.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn {
			failIndex = append(failIndex, r.OnExitCodes.Values...)
		}
		if r.Action == batchv1.PodFailurePolicyActionIgnore {
			for _, c := range r.OnPodConditions {
				ignoresDisruption = ignoresDisruption || c.Type == corev1.DisruptionTarget
			}
		}
	}
	if !slices.Contains(failIndex, 2) {
		t.Errorf("no FailIndex rule on exit status 2 (called wrongly): %v", failIndex)
	}
	if !ignoresDisruption {
		t.Error("a disrupted pod (evicted, preempted) uses up a retry: no Ignore rule on DisruptionTarget")
	}

	var judge *corev1.Container
	for i, c := range s.Template.Spec.Containers {
		if runsBots.MatchString(script(c)) {
			judge = &s.Template.Spec.Containers[i]
		}
	}
	if judge == nil {
		t.Fatal("no container runs judge tournament")
	}
	sh := script(*judge)
	m := regexp.MustCompile(`--shard\s+"?\$\{?\w+\}?/(\d+)"?`).FindStringSubmatch(sh)
	if m == nil {
		t.Errorf("no --shard INDEX/N in %q", sh)
	} else if n, _ := strconv.Atoi(m[1]); n != int(*s.Completions) {
		t.Errorf("--shard .../%d but %d completions", n, *s.Completions)
	}
	if !strings.Contains(sh, "JOB_COMPLETION_INDEX") {
		t.Error("the shard is not the pod's JOB_COMPLETION_INDEX")
	}

	// What the script reads to decide that its index will not be retried.
	if e, ok := env(*judge, "FINAL_STATUSES"); !ok {
		t.Error("no FINAL_STATUSES")
	} else {
		var got []int32
		for _, f := range strings.Fields(e.Value) {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("FINAL_STATUSES %q: %v", e.Value, err)
			}
			got = append(got, int32(n))
		}
		if !slices.Equal(got, failIndex) {
			t.Errorf("FINAL_STATUSES %v, but the FailIndex statuses are %v", got, failIndex)
		}
	}
	if e, ok := env(*judge, "RETRIES_PER_INDEX"); !ok || e.Value != strconv.Itoa(int(*s.BackoffLimitPerIndex)) {
		t.Errorf("RETRIES_PER_INDEX %q, but backoffLimitPerIndex is %d", e.Value, *s.BackoffLimitPerIndex)
	}
	if e, ok := env(*judge, "INDEX_FAILURES"); !ok || e.ValueFrom == nil || e.ValueFrom.FieldRef == nil ||
		e.ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-index-failure-count']" {
		t.Error("INDEX_FAILURES is not the pod's job-index-failure-count annotation")
	}
	if !strings.Contains(sh, `out=/data/results/shard-$i`) || !strings.Contains(sh, `> "$out.failed"`) {
		t.Errorf("the script does not leave /data/results/shard-N.failed: %q", sh)
	}
}

// The merge names every shard of the tournament's Job, no more, and stops
// at once, for good, when one of them fails.
func TestMergeNamesEveryShard(t *testing.T) {
	js := jobs(manifests(t))
	tj, mj := js["tournament"], js["tournament-merge"]
	if tj == nil || mj == nil {
		t.Fatal("no job tournament or tournament-merge")
	}
	if len(mj.Spec.Template.Spec.Containers) != 1 {
		t.Fatal("the merge's pod has more than one container")
	}
	sh := script(mj.Spec.Template.Spec.Containers[0])
	if !strings.Contains(sh, "judge merge --wait") {
		t.Fatalf("no judge merge --wait in %q", sh)
	}
	var shards []int
	for _, m := range regexp.MustCompile(`/data/results/shard-(\d+)\b`).FindAllStringSubmatch(sh, -1) {
		n, _ := strconv.Atoi(m[1])
		shards = append(shards, n)
	}
	slices.Sort(shards)
	var want []int
	for i := range int(*tj.Spec.Completions) {
		want = append(want, i)
	}
	if !slices.Equal(shards, want) {
		t.Errorf("the merge names shards %v, the tournament has %v", shards, want)
	}
	if !strings.Contains(sh, "/data/results/shard-*.failed") || !strings.Contains(sh, "kill -TERM $$") || !strings.Contains(sh, "exec judge merge") {
		t.Errorf("the merge does not stop when a shard leaves shard-N.failed: %q", sh)
	}

	var failJob []int32
	for _, r := range mj.Spec.PodFailurePolicy.Rules {
		if r.Action == batchv1.PodFailurePolicyActionFailJob && r.OnExitCodes != nil && r.OnExitCodes.Operator == batchv1.PodFailurePolicyOnExitCodesOpIn {
			failJob = append(failJob, r.OnExitCodes.Values...)
		}
	}
	for _, code := range []int32{2, 3, 4} {
		if !slices.Contains(failJob, code) {
			t.Errorf("the merge is retried after exit status %d (FailJob on %v)", code, failJob)
		}
	}

	m := regexp.MustCompile(`--timeout\s+(\S+)`).FindStringSubmatch(sh)
	if m == nil {
		t.Fatal("the merge has no --timeout")
	}
	timeout, err := time.ParseDuration(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if d := mj.Spec.ActiveDeadlineSeconds; d == nil || time.Duration(*d)*time.Second <= timeout {
		t.Errorf("activeDeadlineSeconds %v is not longer than --timeout %v", d, timeout)
	}
}

// Every pod mounts the one ReadWriteMany claim that configs/ defines.
func TestVolumeIsShared(t *testing.T) {
	ms := manifests(t)
	claims := map[string]*corev1.PersistentVolumeClaim{}
	for _, m := range ms {
		if c, ok := m.Value.(*corev1.PersistentVolumeClaim); ok {
			claims[c.Name] = c
		}
	}
	for _, p := range pods(ms) {
		claimed := map[string]bool{}
		for _, v := range p.spec.Volumes {
			claimed[v.Name] = v.PersistentVolumeClaim != nil
		}
		mounts := map[string]bool{}
		for _, c := range p.spec.Containers {
			for _, vm := range c.VolumeMounts {
				mounts[vm.Name] = true
				if claimed[vm.Name] && vm.MountPath != "/data" {
					t.Errorf("%s: volume %s at %s, not /data", p.where, vm.Name, vm.MountPath)
				}
			}
		}
		n := 0
		for _, v := range p.spec.Volumes {
			if v.PersistentVolumeClaim == nil {
				continue
			}
			n++
			c := claims[v.PersistentVolumeClaim.ClaimName]
			if c == nil {
				t.Errorf("%s: claim %q is not in configs/", p.where, v.PersistentVolumeClaim.ClaimName)
			} else if !slices.Contains(c.Spec.AccessModes, corev1.ReadWriteMany) {
				t.Errorf("claim %s is not ReadWriteMany: %v", c.Name, c.Spec.AccessModes)
			}
			if !mounts[v.Name] {
				t.Errorf("%s: volume %s is not mounted", p.where, v.Name)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d claims, want 1", p.where, n)
		}
	}
}

// The decoding refuses what the API server would refuse or drop.
func TestDecodeRefuses(t *testing.T) {
	const pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n"
	good := pod + "  hostUsers: false\n  containers:\n    - name: c\n      image: i\n      securityContext:\n        procMount: Unmasked\n"
	objs, err := Decode([]byte("# a comment\n---\n" + good + "---\n" + good))
	if err != nil {
		t.Fatalf("good manifests: %v", err)
	}
	if len(objs) != 2 || objs[0].Doc != 2 || objs[1].Doc != 3 {
		t.Fatalf("got %d objects (%+v), want documents 2 and 3", len(objs), objs)
	}
	p := objs[1].Value.(*corev1.Pod)
	if p.Spec.HostUsers == nil || *p.Spec.HostUsers || *p.Spec.Containers[0].SecurityContext.ProcMount != corev1.UnmaskedProcMount {
		t.Errorf("decoded %+v", p.Spec)
	}
	for name, bad := range map[string]string{
		"misspelled field":         pod + "  hostUser: false\n",
		"field in the wrong case":  pod + "  hostusers: false\n",
		"misspelled nested field":  pod + "  containers:\n    - name: c\n      securityContext:\n        procMounts: Unmasked\n",
		"duplicate key":            pod + "  hostUsers: false\n  hostUsers: true\n",
		"field at the wrong level": pod + "  procMount: Unmasked\n",
		"unknown kind":             "apiVersion: v1\nkind: Pot\nmetadata:\n  name: p\n",
		"second document":          good + "---\n" + pod + "  hostUser: false\n",
	} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("%s: decoded", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

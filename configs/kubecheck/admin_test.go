package kubecheck

// What a cluster's administrator asks of the manifests: images by digest,
// the build cache on an emptyDir within the pod's ephemeral storage, Jobs
// that end and go, a volume owned without fsGroup, and requests that
// cover the tournament's worst case.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// judgeOwn is what the manifests allow the judge itself, beside its bots:
// its peak RSS is 17 MiB at two jobs of tic-tac-toe (docs/benchmarks.md),
// more with Splix's larger replays in memory as they are written.
const judgeOwn = 256 << 20

// ownerCaps are the capabilities the container that owns the volume's
// directories may add: enough to make them and chown them.
var ownerCaps = []corev1.Capability{"CHOWN", "DAC_OVERRIDE", "FOWNER"}

var ownerScript = regexp.MustCompile(`^mkdir -p ((?:/data/\w+ )+)&& chown (\d+):(\d+) ((?:/data/\w+ ?)+)$`)

// ownsVolume says whether a container does nothing but make and chown the
// volume's directories, dropping every capability but ownerCaps.
func ownsVolume(c corev1.Container) bool {
	sc := c.SecurityContext
	if sc == nil || sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") {
		return false
	}
	for _, a := range sc.Capabilities.Add {
		if !slices.Contains(ownerCaps, a) {
			return false
		}
	}
	return ownerScript.MatchString(strings.TrimSpace(strings.Join(c.Args, " "))) && !runsBots.MatchString(script(c))
}

// tournamentJudge is the tournament's Job and its container that runs
// the judge.
func tournamentJudge(t *testing.T, ms []manifest) (*batchv1.Job, *corev1.Container) {
	t.Helper()
	j := jobs(ms)["tournament"]
	if j == nil {
		t.Fatal("no job tournament")
	}
	for i, c := range j.Spec.Template.Spec.Containers {
		if runsBots.MatchString(script(c)) {
			return j, &j.Spec.Template.Spec.Containers[i]
		}
	}
	t.Fatal("no container of job tournament runs judge tournament")
	return nil, nil
}

// flag is the value of a judge flag in a container's script, or "".
func flag(c corev1.Container, name string) string {
	m := regexp.MustCompile(`--` + name + `\s+"?([^"\s\\]+)`).FindStringSubmatch(script(c))
	if m == nil {
		return ""
	}
	return m[1]
}

var byDigest = regexp.MustCompile(`^[a-z0-9]+(?:[.-][a-z0-9]+)*(?::[0-9]+)?(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*)+@sha256:[0-9a-f]{64}$`)

// Every container of every pod names the image by digest, and the same
// one: a pod retried after the tag moved runs the judge the others ran.
func TestImagesByDigest(t *testing.T) {
	images := map[string][]string{}
	for _, p := range pods(manifests(t)) {
		for _, c := range append(slices.Clone(p.spec.InitContainers), p.spec.Containers...) {
			where := p.where + " container " + c.Name
			if !byDigest.MatchString(c.Image) {
				t.Errorf("%s: image %q is not REGISTRY/NAME@sha256:DIGEST (make k8s-image fills it in)", where, c.Image)
			}
			images[c.Image] = append(images[c.Image], where)
		}
	}
	if len(images) != 1 {
		t.Errorf("%d images, want one for every pod: %v", len(images), images)
	}
}

// The judge's build cache is on an emptyDir with a size limit, within
// the container's ephemeral-storage request and limit: not on the
// container's writable layer, where the kubelet neither bounds nor counts
// it before evicting the pod.
func TestBuildCacheOnEmptyDir(t *testing.T) {
	j, judge := tournamentJudge(t, manifests(t))
	cache := flag(*judge, "cache")
	if cache == "" {
		t.Fatal("judge tournament has no --cache")
	}
	var dir *corev1.EmptyDirVolumeSource
	for _, vm := range judge.VolumeMounts {
		if cache == vm.MountPath || strings.HasPrefix(cache, strings.TrimSuffix(vm.MountPath, "/")+"/") {
			for _, v := range j.Spec.Template.Spec.Volumes {
				if v.Name == vm.Name {
					dir = v.EmptyDir
				}
			}
		}
	}
	if dir == nil {
		t.Fatalf("--cache %s is not on an emptyDir volume", cache)
	}
	if dir.Medium != corev1.StorageMediumDefault {
		t.Errorf("the cache's emptyDir has medium %q: on the node's disk, not in the pod's memory", dir.Medium)
	}
	if dir.SizeLimit == nil || dir.SizeLimit.IsZero() {
		t.Fatal("the cache's emptyDir has no sizeLimit")
	}
	req, lim := judge.Resources.Requests[corev1.ResourceEphemeralStorage], judge.Resources.Limits[corev1.ResourceEphemeralStorage]
	if req.IsZero() || lim.IsZero() {
		t.Fatalf("the judge's container has no ephemeral-storage request and limit (%v, %v)", req, lim)
	}
	if req.Cmp(*dir.SizeLimit) < 0 {
		t.Errorf("ephemeral-storage request %v is less than the cache's sizeLimit %v", &req, dir.SizeLimit)
	}
	if lim.Cmp(req) < 0 {
		t.Errorf("ephemeral-storage limit %v is less than its request %v", &lim, &req)
	}
}

// Every Job stops at a deadline and is removed some time after it ends;
// the merge waits as long as the tournament may run, and its own deadline
// is longer than its wait.
func TestJobsEndAndGo(t *testing.T) {
	js := jobs(manifests(t))
	for name, j := range js {
		if d := j.Spec.ActiveDeadlineSeconds; d == nil || *d <= 0 {
			t.Errorf("job %s: no activeDeadlineSeconds", name)
		}
		if ttl := j.Spec.TTLSecondsAfterFinished; ttl == nil || *ttl <= 0 {
			t.Errorf("job %s: no ttlSecondsAfterFinished", name)
		}
	}
	tj, mj := js["tournament"], js["tournament-merge"]
	if tj == nil || mj == nil || tj.Spec.ActiveDeadlineSeconds == nil || len(mj.Spec.Template.Spec.Containers) == 0 {
		t.FailNow()
	}
	timeout, err := time.ParseDuration(flag(mj.Spec.Template.Spec.Containers[0], "timeout"))
	if err != nil {
		t.Fatalf("the merge's --timeout: %v", err)
	}
	if deadline := time.Duration(*tj.Spec.ActiveDeadlineSeconds) * time.Second; timeout < deadline {
		t.Errorf("the merge gives up after %v, the tournament may run %v", timeout, deadline)
	}
}

// The volume's directories are made and owned by an init container of
// each pod, not by fsGroup, which CSI drivers of ReadWriteMany volumes
// may skip: owned by the user every other container runs as.
func TestVolumeOwnedWithoutFSGroup(t *testing.T) {
	for _, p := range pods(manifests(t)) {
		sc := p.spec.SecurityContext
		if sc == nil || sc.RunAsUser == nil || sc.RunAsGroup == nil {
			t.Errorf("%s: no runAsUser and runAsGroup", p.where)
			continue
		}
		if sc.FSGroup != nil {
			t.Errorf("%s: fsGroup %d: ReadWriteMany volumes may not honour it", p.where, *sc.FSGroup)
		}
		want := fmt.Sprintf("%d:%d", *sc.RunAsUser, *sc.RunAsGroup)
		owners := 0
		for _, c := range p.spec.InitContainers {
			if !ownsVolume(c) {
				continue
			}
			owners++
			m := ownerScript.FindStringSubmatch(strings.TrimSpace(strings.Join(c.Args, " ")))
			if got := m[2] + ":" + m[3]; got != want {
				t.Errorf("%s: %s chowns to %s, the pod runs as %s", p.where, c.Name, got, want)
			}
			made, owned := strings.Fields(m[1]), strings.Fields(m[4])
			for _, d := range []string{"/data/bots", "/data/results"} {
				if !slices.Contains(made, d) || !slices.Contains(owned, d) {
					t.Errorf("%s: %s does not make and chown %s", p.where, c.Name, d)
				}
			}
			if c.SecurityContext.RunAsUser == nil || *c.SecurityContext.RunAsUser != 0 {
				t.Errorf("%s: %s does not run as root (the pod's, in its user namespace)", p.where, c.Name)
			}
			if !slices.ContainsFunc(c.VolumeMounts, func(vm corev1.VolumeMount) bool { return vm.MountPath == "/data" }) {
				t.Errorf("%s: %s does not mount /data", p.where, c.Name)
			}
		}
		if owners != 1 {
			t.Errorf("%s: %d init containers own the volume's directories, want 1", p.where, owners)
		}
		for _, c := range p.spec.Containers {
			if c.SecurityContext != nil && (c.SecurityContext.RunAsUser != nil || c.SecurityContext.RunAsGroup != nil) {
				t.Errorf("%s container %s: runs as another user than the pod's", p.where, c.Name)
			}
		}
	}
}

// tournamentFile is what the resources are sized from.
type tournamentFile struct {
	Tournament struct {
		Format    string `toml:"format"`
		GroupSize int    `toml:"group_size"`
	} `toml:"tournament"`
	Sandbox struct {
		Memory string `toml:"memory"`
		Tmp    string `toml:"tmp"`
	} `toml:"sandbox"`
}

// size reads a size as the judge's configuration writes it ("256MiB").
func size(t *testing.T, s string, def int64) int64 {
	if s == "" {
		return def
	}
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("size %q: %v", s, err)
			}
			return n * u.n
		}
	}
	t.Fatalf("size %q: want a number of B, KiB, MiB or GiB", s)
	return 0
}

// worstCase is the memory and CPUs a shard may use: --jobs matches at
// once, each of the tournament file's players, every bot at its memory
// limit with its /tmp (a tmpfs, charged to the pod) full, and the judge;
// CPUs as the judge sizes jobs from them (CPUs x 2 / players per game).
func worstCase(t *testing.T, judge corev1.Container) (mem int64, cpus int, arithmetic string) {
	jobs, err := strconv.Atoi(flag(judge, "jobs"))
	if err != nil || jobs < 1 {
		t.Fatalf("judge tournament's --jobs %q: want a number (the resources are sized from it)", flag(judge, "jobs"))
	}
	config := flag(judge, "config")
	if config == "" {
		t.Fatal("judge tournament has no --config")
	}
	var f tournamentFile
	if _, err := toml.DecodeFile(filepath.Join("..", "..", config), &f); err != nil {
		t.Fatal(err)
	}
	if f.Tournament.Format != "groups" || f.Tournament.GroupSize < 2 {
		t.Fatalf("%s: format %q, group_size %d: this check sizes groups only", config, f.Tournament.Format, f.Tournament.GroupSize)
	}
	players := f.Tournament.GroupSize
	memory, tmp := size(t, f.Sandbox.Memory, 256<<20), size(t, f.Sandbox.Tmp, 64<<20)
	mem = int64(jobs*players)*(memory+tmp) + judgeOwn
	cpus = (jobs*players + 1) / 2
	arithmetic = fmt.Sprintf("%d jobs x %d players x (%d MiB + %d MiB /tmp) + %d MiB = %d MiB; %d CPUs",
		jobs, players, memory>>20, tmp>>20, judgeOwn>>20, mem>>20, cpus)
	return mem, cpus, arithmetic
}

// The judge's container asks for what its tournament may use at worst.
func TestResourcesCoverWorstCase(t *testing.T) {
	_, judge := tournamentJudge(t, manifests(t))
	mem, cpus, arithmetic := worstCase(t, *judge)
	t.Log(arithmetic)
	r := judge.Resources
	if q := r.Requests[corev1.ResourceMemory]; q.Value() < mem {
		t.Errorf("memory request %v, the worst case is %d MiB (%s)", &q, mem>>20, arithmetic)
	}
	if l, q := r.Limits[corev1.ResourceMemory], r.Requests[corev1.ResourceMemory]; l.Cmp(q) < 0 {
		t.Errorf("memory limit %v is less than its request %v", &l, &q)
	}
	if q := r.Requests[corev1.ResourceCPU]; q.Cmp(*resource.NewQuantity(int64(cpus), resource.DecimalSI)) < 0 {
		t.Errorf("cpu request %v, the tournament's jobs want %d (%s)", &q, cpus, arithmetic)
	}
	if l, q := r.Limits[corev1.ResourceCPU], r.Requests[corev1.ResourceCPU]; !l.IsZero() && l.Cmp(q) < 0 {
		t.Errorf("cpu limit %v is less than its request %v", &l, &q)
	}
}

// configs/k8s-image.sh writes the pushed image's digest into every image
// line of the manifests, and changes nothing else. The engine is a stand-in
// that builds nothing and pushes nothing, as podman reports a push.
func TestImageScriptFillsDigest(t *testing.T) {
	dir := t.TempDir()
	bin, out := filepath.Join(dir, "bin"), filepath.Join(dir, "configs")
	for _, d := range []string{bin, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	engine := filepath.Join(bin, "podman")
	fake := "#!/bin/sh\necho \"$@\" >>" + filepath.Join(dir, "calls") + "\n" +
		"case $1 in build) exit 0 ;; push) [ \"$2\" = --digestfile ] && echo " + digest + " >\"$3\" ;; *) exit 1 ;; esac\n"
	if err := os.WriteFile(engine, []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../k8s-*.yaml")
	before := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		before[filepath.Base(f)] = string(b)
		if err := os.WriteFile(filepath.Join(out, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const image = "registry.test:5000/team/judge"
	cmd := exec.Command("sh", "../k8s-image.sh")
	cmd.Env = append(os.Environ(), "IMAGE="+image, "TAG=t1", "ENGINE="+engine, "MANIFESTS="+out, "TMPDIR="+dir)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("k8s-image.sh: %v\n%s", err, b)
	} else {
		t.Logf("%s", b)
	}
	calls, _ := os.ReadFile(filepath.Join(dir, "calls"))
	if !strings.Contains(string(calls), "build -t "+image+":t1 -f ") || !strings.Contains(string(calls), "push --digestfile ") {
		t.Errorf("the engine was called:\n%s", calls)
	}
	images := 0
	for name, was := range before {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		now, old := strings.Split(string(b), "\n"), strings.Split(was, "\n")
		if len(now) != len(old) {
			t.Fatalf("%s: %d lines, was %d", name, len(now), len(old))
		}
		for i := range now {
			if now[i] == old[i] {
				continue
			}
			if !strings.Contains(now[i], "image: "+image+"@"+digest) {
				t.Errorf("%s:%d: %q became %q", name, i+1, old[i], now[i])
			}
			images++
		}
		objs, err := Decode(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, o := range objs {
			for _, p := range pods([]manifest{{name, o}}) {
				for _, c := range append(slices.Clone(p.spec.InitContainers), p.spec.Containers...) {
					if c.Image != image+"@"+digest {
						t.Errorf("%s container %s: image %q", p.where, c.Name, c.Image)
					}
				}
			}
		}
	}
	if images == 0 {
		t.Error("no image line changed")
	}
}

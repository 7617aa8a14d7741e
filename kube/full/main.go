// Command tasklayer-kube-apiserver is a test API server with the core API: the real
// kube-apiserver (k8s.io/kubernetes/cmd/kube-apiserver/app: core v1 — Services, Nodes,
// Namespaces, Events —, the built-in groups, CRDs through its apiextensions server, and the
// aggregator's discovery) over an embedded etcd, serving HTTPS on loopback with one static
// bearer token and allow-all authorization, and writing a kubeconfig for it.
//
// A build recipe, not a fork: it starts etcd (as kube/main.go does), writes the files the
// server's flags name (a service-account key pair, a token file) and runs the upstream
// command with those flags. Its own flags are kube/main.go's, so testbed/apiserver.py
// starts either binary the same way.
package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"go.etcd.io/etcd/server/v3/embed"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // as cmd/kube-apiserver registers them
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

// serviceRange is the range the server allocates Service cluster IPs from: bookkeeping in
// etcd only, nothing listens or is dialled there (no kube-proxy, no webhooks).
const serviceRange = "10.96.0.0/16"

func main() {
	port := flag.Int("port", 0, "HTTPS port on 127.0.0.1 (0: a free one)")
	dataDir := flag.String("data-dir", "", "etcd data, keys and serving certificates (kept across restarts)")
	kubeconfig := flag.String("kubeconfig", "", "where to write the kubeconfig (default: <data-dir>/kubeconfig)")
	token := flag.String("token", "tasklayer-test-token", "the one bearer token every request must carry")
	verbosity := flag.Int("v", 0, "kube-apiserver's log verbosity")
	flag.Parse()
	if *dataDir == "" {
		fmt.Fprintln(os.Stderr, "--data-dir is required")
		os.Exit(2)
	}
	if *kubeconfig == "" {
		*kubeconfig = filepath.Join(*dataDir, "kubeconfig")
	}
	code, err := run(*port, *dataDir, *kubeconfig, *token, *verbosity)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tasklayer-kube-apiserver:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func run(port int, dataDir, kubeconfig, token string, verbosity int) (int, error) {
	etcd, err := startEtcd(filepath.Join(dataDir, "etcd"))
	if err != nil {
		return 0, fmt.Errorf("etcd: %w", err)
	}
	defer etcd.Close()
	if port == 0 {
		if port, err = freePort(); err != nil {
			return 0, err
		}
	}
	keyFile := filepath.Join(dataDir, "service-account.key")
	if err := ensureServiceAccountKey(keyFile); err != nil {
		return 0, fmt.Errorf("service-account key: %w", err)
	}
	tokenFile := filepath.Join(dataDir, "tokens.csv")
	// token,user,uid,"groups": system:masters is the group every authorizer lets through
	if err := os.WriteFile(tokenFile, []byte(token+`,tasklayer-admin,tasklayer-admin,"system:masters"`+"\n"), 0o600); err != nil {
		return 0, err
	}
	certDir := filepath.Join(dataDir, "certs")
	command := app.NewAPIServerCommand()
	command.SetArgs([]string{
		"--etcd-servers=http://" + etcd.Clients[0].Addr().String(),
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--cert-dir=" + certDir, // self-signed apiserver.crt/.key for 127.0.0.1, made on first start
		"--token-auth-file=" + tokenFile,
		"--anonymous-auth=false",
		"--authorization-mode=AlwaysAllow",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + keyFile,
		"--service-account-signing-key-file=" + keyFile,
		"--service-cluster-ip-range=" + serviceRange,
		"--endpoint-reconciler-type=none", // the "kubernetes" Service's endpoint may not be loopback
		"--enable-priority-and-fairness=false",
		"--profiling=false",
		"--v=" + strconv.Itoa(verbosity),
	})
	if err := writeKubeconfig(kubeconfig, port, filepath.Join(certDir, "apiserver.crt"), token); err != nil {
		return 0, err
	}
	return cli.Run(command), nil
}

// ensureServiceAccountKey writes an RSA key once: restarts keep the tokens it signed valid.
func ensureServiceAccountKey(path string) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	block := &pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}
	return writeAtomically(path, pem.EncodeToMemory(block))
}

func startEtcd(dir string) (*embed.Etcd, error) {
	clientPort, err := freePort()
	if err != nil {
		return nil, err
	}
	peerPort, err := freePort()
	if err != nil {
		return nil, err
	}
	cfg := embed.NewConfig()
	cfg.Dir = dir
	cfg.LogLevel = "error"
	cfg.UnsafeNoFsync = true // a test server: its data may be lost with the machine
	client := url.URL{Scheme: "http", Host: "127.0.0.1:" + strconv.Itoa(clientPort)}
	peer := url.URL{Scheme: "http", Host: "127.0.0.1:" + strconv.Itoa(peerPort)}
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{client}, []url.URL{client}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{peer}, []url.URL{peer}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, err
	}
	select {
	case <-e.Server.ReadyNotify():
		return e, nil
	case <-time.After(60 * time.Second):
		e.Close()
		return nil, errors.New("not ready after 60s")
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func writeKubeconfig(path string, port int, caFile, token string) error {
	return writeAtomically(path, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: tasklayer
  cluster:
    server: https://127.0.0.1:%d
    certificate-authority: %s
users:
- name: tasklayer-admin
  user:
    token: %s
contexts:
- name: tasklayer
  context: {cluster: tasklayer, user: tasklayer-admin}
current-context: tasklayer
`, port, caFile, token)))
}

// writeAtomically renames a finished file into place, so a reader never sees half of it.
func writeAtomically(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Command tasklayer-apiserver is a test API server for the generated CRDs: the real
// k8s.io/apiextensions-apiserver (CRDs and their custom resources, with the server's own
// structural-schema, CEL, list-type and status-subresource machinery) over an embedded etcd,
// serving HTTPS on loopback with one static bearer token, and writing a kubeconfig for it.
//
// It is a build recipe, not a fork: everything below is configuration of the upstream
// packages. It serves no core API (no events or RBAC; namespaces only as a fixed list of
// "default"): custom resources may be created in any namespace name, and every request with
// the token is allowed.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"

	"go.etcd.io/etcd/server/v3/embed"

	apihelpers "k8s.io/apiextensions-apiserver/pkg/apihelpers"
	v1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver"
	clientset "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apiextensions-apiserver/pkg/cmd/server/options"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/request/bearertoken"
	"k8s.io/apiserver/pkg/authentication/token/tokenfile"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizerfactory"
	openapinamer "k8s.io/apiserver/pkg/endpoints/openapi"
	genericapiserver "k8s.io/apiserver/pkg/server"
	"k8s.io/apiserver/pkg/util/openapi"
	"k8s.io/apiserver/pkg/util/webhook"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	netutils "k8s.io/utils/net"

	noopoteltrace "go.opentelemetry.io/otel/trace/noop"
)

func main() {
	port := flag.Int("port", 0, "HTTPS port on 127.0.0.1 (0: a free one)")
	dataDir := flag.String("data-dir", "", "etcd data and serving certificates (kept across restarts)")
	kubeconfig := flag.String("kubeconfig", "", "where to write the kubeconfig (default: <data-dir>/kubeconfig)")
	token := flag.String("token", "tasklayer-test-token", "the one bearer token every request must carry")
	klog.InitFlags(nil)
	flag.Parse()
	if *dataDir == "" {
		fmt.Fprintln(os.Stderr, "--data-dir is required")
		os.Exit(2)
	}
	if *kubeconfig == "" {
		*kubeconfig = filepath.Join(*dataDir, "kubeconfig")
	}
	if err := run(genericapiserver.SetupSignalContext(), *port, *dataDir, *kubeconfig, *token); err != nil {
		fmt.Fprintln(os.Stderr, "tasklayer-apiserver:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, port int, dataDir, kubeconfig, token string) error {
	etcd, err := startEtcd(filepath.Join(dataDir, "etcd"))
	if err != nil {
		return fmt.Errorf("etcd: %w", err)
	}
	defer etcd.Close()
	if port == 0 {
		if port, err = freePort(); err != nil {
			return err
		}
	}
	config, err := serverConfig(etcd.Clients[0].Addr().String(), port, filepath.Join(dataDir, "certs"), token)
	if err != nil {
		return err
	}
	server, err := config.Complete().New(genericapiserver.NewEmptyDelegate())
	if err != nil {
		return err
	}
	serveCoreStub(server.GenericAPIServer)
	if err := writeKubeconfig(kubeconfig, port, filepath.Join(dataDir, "certs", "apiserver.crt"), token); err != nil {
		return err
	}
	return server.GenericAPIServer.PrepareRun().RunWithContext(ctx)
}

// serverConfig is the apiextensions-apiserver's own options.Config with its delegations to a
// core API server (authentication, authorization, admission, priority and fairness, the
// service lister for conversion webhooks) replaced by a static token and allow-all.
func serverConfig(etcdAddr string, port int, certDir, token string) (*apiserver.Config, error) {
	o := options.NewCustomResourceDefinitionsServerOptions(os.Stdout, os.Stderr)
	if err := o.ServerRunOptions.ComponentGlobalsRegistry.Set(); err != nil {
		return nil, err
	}
	if err := o.Complete(); err != nil {
		return nil, err
	}
	ro := o.RecommendedOptions
	ro.Etcd.StorageConfig.Transport.ServerList = []string{"http://" + etcdAddr}
	ro.SecureServing.BindAddress = netutils.ParseIPSloppy("127.0.0.1")
	ro.SecureServing.BindPort = port
	ro.SecureServing.ServerCert.CertDirectory = certDir
	ro.SecureServing.ServerCert.PairName = "apiserver"
	ro.Authentication, ro.Authorization, ro.CoreAPI, ro.Admission = nil, nil, nil, nil
	ro.Features.EnablePriorityAndFairness = false
	if errs := o.Validate(); errs != nil {
		return nil, errs
	}
	if err := ro.SecureServing.MaybeDefaultWithSelfSignedCerts("localhost", nil, []net.IP{netutils.ParseIPSloppy("127.0.0.1")}); err != nil {
		return nil, fmt.Errorf("self-signed certificates: %w", err)
	}

	generic := genericapiserver.NewRecommendedConfig(apiserver.Codecs)
	if err := o.ServerRunOptions.ApplyTo(&generic.Config); err != nil {
		return nil, err
	}
	if err := ro.ApplyTo(generic); err != nil {
		return nil, err
	}
	if err := o.APIEnablement.ApplyTo(&generic.Config, apiserver.DefaultAPIResourceConfigSource(), apiserver.Scheme); err != nil {
		return nil, err
	}
	admin := &user.DefaultInfo{Name: "tasklayer-admin", Groups: []string{user.SystemPrivilegedGroup, user.AllAuthenticated}}
	generic.Authentication.Authenticator = bearertoken.New(tokenfile.New(map[string]*user.DefaultInfo{token: admin}))
	generic.Authorization.Authorizer = authorizerfactory.NewAlwaysAllowAuthorizer()
	genericapiserver.AuthorizeClientBearerToken(generic.LoopbackClientConfig, &generic.Authentication, &generic.Authorization)
	generic.BuildHandlerChainFunc = func(h http.Handler, c *genericapiserver.Config) http.Handler {
		return genericapiserver.DefaultBuildHandlerChain(withGroupList(h, c.LoopbackClientConfig), c)
	}
	generic.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config(
		openapi.GetOpenAPIDefinitionsWithoutDisabledFeatures(generatedopenapi.GetOpenAPIDefinitions),
		openapinamer.NewDefinitionNamer(apiserver.Scheme, scheme.Scheme))

	return &apiserver.Config{
		GenericConfig: generic,
		ExtraConfig: apiserver.ExtraConfig{
			CRDRESTOptionsGetter: options.NewCRDRESTOptionsGetter(*ro.Etcd, generic.ResourceTransformers, generic.StorageObjectCountTracker),
			ServiceResolver:      noServices{},
			AuthResolverWrapper:  webhook.NewDefaultAuthenticationInfoResolverWrapper(nil, nil, generic.LoopbackClientConfig, noopoteltrace.NewTracerProvider()),
		},
	}, nil
}

// serveCoreStub answers the core API's discovery (/api, /api/v1) with one resource, namespaces,
// listed as the one namespace "default": clients that scan every API and wait for namespaces
// before watching anything (kopf) stop at a 404 there. No other core resource is served.
func serveCoreStub(s *genericapiserver.GenericAPIServer) {
	reply := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(body))
		}
	}
	s.Handler.NonGoRestfulMux.Handle("/api", reply(`{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":null}`))
	s.Handler.NonGoRestfulMux.Handle("/api/v1", reply(`{"kind":"APIResourceList","groupVersion":"v1","resources":[`+
		`{"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace","verbs":["list"]}]}`))
	s.Handler.NonGoRestfulMux.Handle("/api/v1/namespaces", reply(`{"kind":"NamespaceList","apiVersion":"v1",`+
		`"metadata":{"resourceVersion":"1"},"items":[{"metadata":{"name":"default"},"status":{"phase":"Active"}}]}`))
}

// withGroupList answers /apis, the list of API groups, which the apiextensions-apiserver leaves
// to the aggregator of a full control plane: its own group and every Established CRD's.
func withGroupList(next http.Handler, loopback *rest.Config) http.Handler {
	var once sync.Once
	var client clientset.Interface
	var clientErr error
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/apis" && r.URL.Path != "/apis/" {
			next.ServeHTTP(w, r)
			return
		}
		once.Do(func() { client, clientErr = clientset.NewForConfig(loopback) })
		list, err := groupList(r.Context(), client, clientErr)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(list)
	})
}

func groupList(ctx context.Context, client clientset.Interface, clientErr error) (*metav1.APIGroupList, error) {
	if clientErr != nil {
		return nil, clientErr
	}
	crds, err := client.ApiextensionsV1().CustomResourceDefinitions().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	own := metav1.GroupVersionForDiscovery{GroupVersion: "apiextensions.k8s.io/v1", Version: "v1"}
	groups := map[string]*metav1.APIGroup{"apiextensions.k8s.io": {Name: "apiextensions.k8s.io",
		Versions: []metav1.GroupVersionForDiscovery{own}, PreferredVersion: own}}
	names := []string{"apiextensions.k8s.io"}
	for _, crd := range crds.Items {
		if !apihelpers.IsCRDConditionTrue(&crd, v1.Established) {
			continue
		}
		group := groups[crd.Spec.Group]
		if group == nil {
			group = &metav1.APIGroup{Name: crd.Spec.Group}
			groups[crd.Spec.Group] = group
			names = append(names, crd.Spec.Group)
		}
		for _, version := range crd.Spec.Versions {
			if version.Served {
				gv := metav1.GroupVersionForDiscovery{GroupVersion: crd.Spec.Group + "/" + version.Name, Version: version.Name}
				group.Versions = append(group.Versions, gv)
				if version.Storage {
					group.PreferredVersion = gv
				}
			}
		}
	}
	list := &metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}}
	sort.Strings(names[1:])
	for _, name := range names {
		list.Groups = append(list.Groups, *groups[name])
	}
	return list, nil
}

// noServices resolves no conversion webhook: the generated CRDs serve one version each.
type noServices struct{}

func (noServices) ResolveEndpoint(namespace, name string, port int32) (*url.URL, error) {
	return nil, errors.New("no core API: conversion webhooks are not served")
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

// writeKubeconfig writes atomically, so a reader never sees half a file.
func writeKubeconfig(path string, port int, caFile, token string) error {
	text := fmt.Sprintf(`apiVersion: v1
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
`, port, caFile, token)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

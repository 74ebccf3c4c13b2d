{{/* The name of a service's objects: <release>-<service>. */}}
{{- define "vaultd.name" -}}
{{- printf "%s-%s" (.root.Release.Name | trunc 40 | trimSuffix "-") .svc -}}
{{- end -}}

{{/* The labels a service's pods carry, which its Services and budget select. */}}
{{- define "vaultd.selector" -}}
app.kubernetes.io/name: vaultd
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .svc }}
{{- end -}}

{{- define "vaultd.labels" -}}
{{ include "vaultd.selector" . }}
app.kubernetes.io/version: {{ .root.Values.image.tag | default .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{/* A variable from the services' Secret, when its key is named. */}}
{{- define "vaultd.secretEnv" -}}
{{- if .key }}
- name: {{ .name }}
  valueFrom:
    secretKeyRef: {name: {{ .root.Values.secrets.name | quote }}, key: {{ .key | quote }}}
{{- end }}
{{- end -}}

{{/* What every service reads: the chain, the log level, the proxies, the database. */}}
{{- define "vaultd.commonEnv" -}}
{{- $v := .root.Values -}}
- name: RPC_URL
  value: {{ required "chain.rpcUrl is required" $v.chain.rpcUrl | quote }}
- name: CHAIN_ID
  value: {{ required "chain.chainId is required" $v.chain.chainId | toString | quote }}
- name: LOG_LEVEL
  value: {{ $v.logLevel | quote }}
{{- with $v.trustedProxies }}
- name: TRUSTED_PROXIES
  value: {{ . | quote }}
{{- end }}
- name: OTEL_SERVICE_NAME
  value: {{ .svc | quote }}
{{- include "vaultd.secretEnv" (dict "root" .root "name" "DATABASE_URL" "key" $v.secrets.databaseUrl) }}
{{- end -}}

{{/* The contracts' addresses (relayer, indexer). */}}
{{- define "vaultd.contractsEnv" -}}
{{- $c := .Values.contracts -}}
- name: COMMIT_REVEAL_VAULT_ADDRESS
  value: {{ required "contracts.vault is required" $c.vault | quote }}
- name: NULLIFIER_REGISTRY_ADDRESS
  value: {{ required "contracts.nullifierRegistry is required" $c.nullifierRegistry | quote }}
- name: COMMITMENT_TREE_ADDRESS
  value: {{ required "contracts.commitmentTree is required" $c.commitmentTree | quote }}
{{- end -}}

{{/* The AWS SDK's variables, for keys in KMS. */}}
{{- define "vaultd.awsEnv" -}}
{{- with .Values.aws.region }}
- name: AWS_REGION
  value: {{ . | quote }}
{{- end }}
{{- with .Values.aws.kmsEndpointUrl }}
- name: AWS_ENDPOINT_URL_KMS
  value: {{ . | quote }}
{{- end }}
{{- end -}}

{{/* An operator's extra variables (a service's env map), sorted by name. */}}
{{- define "vaultd.extraEnv" -}}
{{- range $k, $val := . }}
- name: {{ $k }}
  value: {{ $val | toString | quote }}
{{- end }}
{{- end -}}

{{/*
A service's Deployment. Arguments: root, svc (component), name (the Deployment's), replicas,
port, adminPort (0: none), ready (the readiness path), env, volumes, mounts (YAML lists as
strings), resources.
*/}}
{{- define "vaultd.deployment" -}}
{{- $v := .root.Values -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .name }}
  labels:
    {{- include "vaultd.labels" . | nindent 4 }}
spec:
  replicas: {{ .replicas }}
  selector:
    matchLabels:
      {{- include "vaultd.selector" . | nindent 6 }}
      {{- if ne .name (include "vaultd.name" .) }}
      vaultd.io/instance: {{ .name }}
      {{- end }}
  template:
    metadata:
      labels:
        {{- include "vaultd.selector" . | nindent 8 }}
        {{- if ne .name (include "vaultd.name" .) }}
        vaultd.io/instance: {{ .name }}
        {{- end }}
      {{- if $v.monitoring.annotations }}
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: {{ .port | quote }}
        prometheus.io/path: /metrics
      {{- end }}
    spec:
      serviceAccountName: {{ include "vaultd.serviceAccount" .root }}
      securityContext:
        runAsNonRoot: true
        runAsUser: 65532
        runAsGroup: 65532
        fsGroup: 65532
      containers:
        - name: {{ .svc }}
          image: {{ printf "%s/vaultd-%s:%s" $v.image.repository .svc ($v.image.tag | default .root.Chart.AppVersion) | quote }}
          imagePullPolicy: {{ $v.image.pullPolicy }}
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities: {drop: [ALL]}
          env:
            - name: PORT
              value: {{ .port | quote }}
            {{- if .adminPort }}
            - name: ADMIN_ADDR
              value: {{ printf ":%v" .adminPort | quote }}
            {{- end }}
            {{- include "vaultd.commonEnv" . | nindent 12 }}
            {{- .env | nindent 12 }}
          ports:
            - {name: http, containerPort: {{ .port }}}
            {{- if .adminPort }}
            - {name: admin, containerPort: {{ .adminPort }}}
            {{- end }}
          readinessProbe:
            httpGet: {path: {{ .ready }}, port: http}
            periodSeconds: 5
          livenessProbe:
            httpGet: {path: /health, port: http}
            periodSeconds: 15
            timeoutSeconds: 5
          resources:
            {{- toYaml .resources | nindent 12 }}
          volumeMounts:
            - {name: data, mountPath: /data}
            {{- .mounts | nindent 12 }}
      volumes:
        - name: data
          emptyDir: {}
        {{- .volumes | nindent 8 }}
{{- end -}}

{{- define "vaultd.serviceAccount" -}}
{{- if .Values.serviceAccount.create }}{{ printf "%s-vaultd" (.Release.Name | trunc 40 | trimSuffix "-") }}{{ else }}default{{ end -}}
{{- end -}}

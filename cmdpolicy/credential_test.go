package cmdpolicy

import "testing"

func TestCredentialName(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"TF_TOKEN_app_terraform_io", true},
		{"tf_token_app_terraform_io", true},
		{"TF_TOKEN_", true},
		{"TF_CLI_CONFIG_FILE", true},
		{"TERRAFORM_CONFIG", true},
		{"GITHUB_TOKEN", true},
		{"ACTIONS_RUNTIME_TOKEN", true},
		{"AWS_SECRET_ACCESS_KEY", true},
		{"AWS_ACCESS_KEY_ID", true},
		{"AWS_SESSION_TOKEN", true},
		{"CLIENT_SECRET", true},
		{"DB_PASSWORD", true},
		{"PGPASSWD", true},
		{"GOOGLE_APPLICATION_CREDENTIALS", true},
		{"NPM_API_KEY", true},
		{"OPENAI_APIKEY", true},
		{"SSH_PRIVATE_KEY", true},
		{"PATH", false},
		{"PYTHONPATH", false},
		{"TF_LOG", false},
		{"TF_CLI_ARGS", false},
		{"GIT_AUTHOR_NAME", false},
		{"KEYBOARD_LAYOUT", false},
		{"TOKE", false},
	} {
		if got := CredentialName(tt.name); got != tt.want {
			t.Errorf("CredentialName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

#!/usr/bin/env bash
# The action's pull request comment: the markdown report in one comment, created the first time
# and edited in place on every later run, found by the report's `<!-- linkwright-check -->`
# marker among the pull request's comments (every page of them) through GitHub's REST API.
#
# It never fails the job: a token that may not comment (a pull request from a fork gets a
# read-only GITHUB_TOKEN), an API error or a run outside a pull request leaves a notice, and the
# check's own verdict stands.
#
# Environment: REPORT (the markdown report's file; default the one the job summary step
# wrote in RUNNER_TEMP), GITHUB_TOKEN, GITHUB_API_URL,
# GITHUB_REPOSITORY and GITHUB_EVENT_PATH as a runner sets them. Needs curl and jq.
set -euo pipefail

marker='<!-- linkwright-check -->'
# GitHub refuses a comment body over 65,536 characters.
limit=65000

notice() {
    echo "::notice title=linkwright comment::$*"
    exit 0
}

command -v jq >/dev/null || notice "no pull request comment: jq is not installed on this runner"
number=$(jq -r '.pull_request.number // empty' "${GITHUB_EVENT_PATH:-/dev/null}" 2>/dev/null || true)
[ -n "$number" ] || notice "no pull request comment: this run is not for a pull request"
[ -n "${GITHUB_TOKEN:-}" ] || notice "no pull request comment: the github-token input is empty"
api=${GITHUB_API_URL:-https://api.github.com}
repository=${GITHUB_REPOSITORY:?}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The body: the report, cut to GitHub's limit, with the marker that finds it next time.
report=$(cat "${REPORT:-$RUNNER_TEMP/linkwright-report.md}")
if ((${#report} > limit)); then
    report="${report:0:limit}

… cut here: the report is longer than a comment may be. The job summary has all of it."
fi
case "$report" in
    *"$marker"*) ;;
    *) report="$marker
$report" ;;
esac
# Read from a file: an argument may not exceed 128 KiB, which a report of 65,000 characters can.
printf '%s' "$report" >"$scratch/body.md"
jq -n --rawfile body "$scratch/body.md" '{body: $body}' >"$scratch/request.json"

# Calls the API; on a status other than 2xx, leaves a notice naming it and what GitHub said.
call() {
    local method=$1 url=$2 status
    shift 2
    status=$(curl --silent --show-error --location --retry 2 --max-time 60 -X "$method" \
        -H "Authorization: Bearer $GITHUB_TOKEN" -H "Accept: application/vnd.github+json" \
        -H "X-GitHub-Api-Version: 2022-11-28" -D "$scratch/headers" -o "$scratch/response" \
        -w '%{http_code}' "$@" "$url") || notice "no pull request comment: $api could not be reached"
    case "$status" in
        2??) return 0 ;;
    esac
    local said
    said=$(jq -r '.message // empty' "$scratch/response" 2>/dev/null || true)
    if [ "$status" = 403 ] || [ "$status" = 404 ]; then
        notice "no pull request comment: GitHub answered $status${said:+ ($said)} to $method $url. The token may not write to this pull request: a pull request from a fork gets a read-only GITHUB_TOKEN, and a workflow needs 'permissions: pull-requests: write'. The annotations and the job summary still hold the report."
    fi
    notice "no pull request comment: GitHub answered $status${said:+ ($said)} to $method $url"
}

# The first comment holding the marker, on any page.
url="$api/repos/$repository/issues/$number/comments?per_page=100"
existing=""
while [ -n "$url" ] && [ -z "$existing" ]; do
    call GET "$url"
    existing=$(jq -r --arg marker "$marker" \
        'first(.[] | select((.body // "") | contains($marker)) | .id) // empty' "$scratch/response")
    url=$(tr -d '\r' <"$scratch/headers" | sed -n 's/^[Ll]ink:.*<\([^>]*\)>; *rel="next".*/\1/p' | tail -n 1)
done

if [ -n "$existing" ]; then
    call PATCH "$api/repos/$repository/issues/comments/$existing" --data-binary "@$scratch/request.json"
    echo "updated the pull request comment $(jq -r '.html_url // .id' "$scratch/response")"
else
    call POST "$api/repos/$repository/issues/$number/comments" --data-binary "@$scratch/request.json"
    echo "commented on the pull request: $(jq -r '.html_url // .id' "$scratch/response")"
fi

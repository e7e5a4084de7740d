#!/usr/bin/env bash
# check-format.sh - fails when a C or C++ line changed since a base revision
# is not formatted as .clang-format says (LLVM style), and prints the diff
# that would format it. Only changed lines are checked (git clang-format),
# so code that predates the style is left alone until it is edited.
#
#   bash scripts/check-format.sh [BASE]
#
# The changes checked are those from BASE to the working tree (commits and
# uncommitted edits). BASE, when not given (or POCL_ISS_FORMAT_BASE): the
# merge-base of HEAD with origin/main, else with main; where that is HEAD
# itself (on main, as in CI after a merge), the last commit, HEAD~1. CI
# (.ci/run) runs it without arguments. To format the lines you changed:
# `git clang-format BASE`.
# SPDX-License-Identifier: MIT
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v git-clang-format >/dev/null || ! command -v clang-format >/dev/null; then
  echo "check-format: installing clang-format" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    clang-format >/dev/null
fi

base=${1:-${POCL_ISS_FORMAT_BASE:-}}
if [ -z "$base" ]; then
  for ref in origin/main main; do
    if git rev-parse -q --verify "$ref^{commit}" >/dev/null; then
      base=$(git merge-base HEAD "$ref")
      break
    fi
  done
  if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
    if git rev-parse -q --verify "HEAD~1^{commit}" >/dev/null; then
      base=$(git rev-parse HEAD~1)
    else
      echo "check-format: no base revision to compare with; nothing checked"
      exit 0
    fi
  fi
fi
git rev-parse -q --verify "$base^{commit}" >/dev/null || {
  echo "check-format: '$base' is not a revision" >&2
  exit 2
}

out=$(git clang-format --binary "$(command -v clang-format)" --style file --diff \
  --extensions c,cc,cpp,h,hpp "$base" --)
if grep -q '^diff --git' <<<"$out"; then
  printf '%s\n' "$out"
  echo "check-format: the lines above, changed since $(git rev-parse --short "$base"), are not formatted as .clang-format says; run: git clang-format $(git rev-parse --short "$base")" >&2
  exit 1
fi
echo "check-format: the C and C++ lines changed since $(git rev-parse --short "$base") are formatted"

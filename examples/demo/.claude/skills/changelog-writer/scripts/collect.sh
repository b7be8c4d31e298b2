set -eu
git log --no-merges --format='%s' "$(git describe --tags --abbrev=0)..HEAD"

// Package atomicfile replaces a file whole: a crash at any moment leaves the old file or the new
// one, never part of either (the registry's data file and icons, the deployment journal and
// files, the dev chain's manifest).
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces path with data so that a crash at any moment leaves either the old
// file or the new one: write a temporary file in the same folder, fsync it, rename it over the
// target, fsync the folder.
func Write(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tempPattern(filepath.Base(path)))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}

// tempPattern is the name Write gives its temporary files.
func tempPattern(base string) string { return "." + base + ".tmp-*" }

// RemoveTemps deletes temporary files that a crash left in dir (they never hold committed
// data: the rename is the commit).
func RemoveTemps(dir, base string) {
	matches, _ := filepath.Glob(filepath.Join(dir, tempPattern(base)))
	for _, m := range matches {
		os.Remove(m)
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("fsync %s: %w", dir, err)
	}
	return nil
}

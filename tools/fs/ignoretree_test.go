package fs

// ignoreTree is a repository that exercises git's ignore rules: 49
// patterns in its .git/info/exclude, four .gitignore files and two .ignore
// files, and entries that each rule matches or just misses, named for it.
// A name ending in "/" is an empty directory.
var ignoreTree = map[string]string{
	".git/info/exclude": "# from .git/info/exclude\n*.swp\n/local-only/\n",
	".gitignore": "# comments and blank lines hold no pattern\n\n" +
		"\\#hash.txt\n" +
		"\\!bang.txt\n" +
		"*.log\n" +
		"!keep.log\n" +
		"build/\n" +
		"!build/keep.txt\n" +
		"/dist\n" +
		"node_modules\n" +
		"docs/*.html\n" +
		"!docs/index.html\n" +
		"**/cache/\n" +
		"logs/**\n" +
		"!logs/.gitkeep\n" +
		"/anchored.txt\n" +
		"trailing.txt   \n" +
		"space\\ \n" +
		"a/**/z.txt\n" +
		"*.o\n" +
		"!important/\n" +
		"[!a]x.tmp\n" +
		"[^b]y.tmp\n" +
		"foo**bar\n" +
		"deep/**/leaf/\n" +
		"/secrets/*\n" +
		"!/secrets/public/\n" +
		"tmp?.txt\n" +
		"*.py[cod]\n" +
		"vendor/*/\n" +
		"[[:digit:]]*.num\n" +
		"/**/anywhere.txt\n" +
		"crlf.txt\r\n" +
		"onlydir/\n",
	".ignore":              "*.bak\n!keep.bak\n",
	"sub/.gitignore":       "*.txt\n!readme.txt\n/local.md\ngen/\n!app.log\n",
	"sub/.ignore":          "readme.txt\n",
	"sub/inner/.gitignore": "!notes.txt\n*.md\ninner-only/\n",
	"wl/.gitignore":        "*\n!*/\n!*.go\n!.gitignore\n",

	"#hash.txt": "", "!bang.txt": "", "hash.txt": "", "bang.txt": "",
	"app.log": "", "keep.log": "", "src/app.log": "",
	"important/x.log": "", "important/keep.txt": "",
	"build/out.bin": "", "build/keep.txt": "", "src/build": "",
	"dist/x.js": "", "src/dist/x.js": "",
	"node_modules/pkg/index.js": "", "src/node_modules": "",
	"docs/a.html": "", "docs/index.html": "", "docs/sub/b.html": "", "docs/readme.md": "",
	"cache/x": "", "src/cache/y": "", "src/cachefile": "",
	"logs/a.txt": "", "logs/.gitkeep": "", "logs/sub/c.txt": "",
	"anchored.txt": "", "src/anchored.txt": "",
	"trailing.txt": "", "space ": "", "space": "",
	"a/z.txt": "", "a/b/c/z.txt": "", "b/a/z.txt": "",
	"x.o": "", "ax.tmp": "", "bx.tmp": "", "by.tmp": "", "ay.tmp": "",
	"foobar": "", "foo-x-bar": "", "foo/bar": "",
	"deep/leaf/f": "", "deep/x/y/leaf/f": "", "deep/x/leaf": "",
	"secrets/key": "", "secrets/public/cert": "", "secrets/more/k": "",
	"tmp1.txt": "", "tmp12.txt": "",
	"x.pyc": "", "x.pyd": "", "x.py": "",
	"vendor/lib/x.go": "", "vendor/file.go": "",
	"1.num": "", "a.num": "",
	"anywhere.txt": "", "q/anywhere.txt": "",
	"crlf.txt": "",
	"onlydir":  "", "x/onlydir/": "",
	"a.swp": "", "local-only/f": "", "src/local-only/f": "",
	"x.bak": "", "keep.bak": "",
	"sub/a.txt": "", "sub/readme.txt": "", "sub/local.md": "", "sub/app.log": "", "sub/gen/g.go": "",
	"sub/inner/local.md": "", "sub/inner/notes.txt": "", "sub/inner/other.txt": "", "sub/inner/inner-only/f": "", "sub/inner/x.go": "",
	"wl/a.go": "", "wl/a.txt": "", "wl/pkg/b.go": "", "wl/pkg/b.txt": "",
}

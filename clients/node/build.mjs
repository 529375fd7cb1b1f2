// Builds @partita/client into dist/: generates the protobuf code of
// proto/client.proto and proto/errors.proto with protobufjs-cli (pbjs, pbts;
// pure JavaScript, nothing downloaded), then compiles src/ twice with tsc:
// ES modules (dist/esm) and CommonJS (dist/cjs). Generated code is never
// committed: src/gen/ and dist/ are rebuilt here.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const protoDir = join(here, '..', '..', 'proto');
const protos = [join(protoDir, 'client.proto'), join(protoDir, 'errors.proto')];
const bin = (name) => join(here, 'node_modules', '.bin', name);
const run = (cmd, args) => execFileSync(bin(cmd), args, { cwd: here, stdio: 'inherit' });
const pbjsFlags = ['-t', 'static-module', '--no-create', '--no-verify', '--no-convert', '--no-delimited',
  '--no-service', '--no-typeurl'];

for (const tool of ['pbjs', 'pbts', 'tsc']) {
  if (!existsSync(bin(tool))) {
    console.error(`build: ${bin(tool)} is missing: run npm ci in clients/node (scripts/install-deps does)`);
    process.exit(1);
  }
}

rmSync(join(here, 'dist'), { recursive: true, force: true });
rmSync(join(here, 'src', 'gen'), { recursive: true, force: true });
for (const d of ['src/gen', 'dist/esm/gen', 'dist/cjs/gen']) mkdirSync(join(here, d), { recursive: true });

run('pbjs', [...pbjsFlags, '-w', 'es6', '-o', 'src/gen/proto.js', ...protos]);
run('pbts', ['-o', 'src/gen/proto.d.ts', 'src/gen/proto.js']);
run('pbjs', [...pbjsFlags, '-w', 'commonjs', '-o', 'dist/cjs/gen/proto.js', ...protos]);
copyFileSync(join(here, 'src/gen/proto.js'), join(here, 'dist/esm/gen/proto.js'));
for (const d of ['dist/esm/gen', 'dist/cjs/gen']) copyFileSync(join(here, 'src/gen/proto.d.ts'), join(here, d, 'proto.d.ts'));

run('tsc', ['-p', 'tsconfig.json']);
run('tsc', ['-p', 'tsconfig.cjs.json']);
writeFileSync(join(here, 'dist/cjs/package.json'), '{ "type": "commonjs" }\n');
console.log('build: dist/esm and dist/cjs ready');

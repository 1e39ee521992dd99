import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { consoleDist } from './scripts/console-dist.ts';

export default defineConfig({
  // consoleDist: brotli/gzip copies of the built files and the source stamp (scripts/console-dist.ts)
  plugins: [react(), consoleDist()],
  server: {
    port: 5173,
    proxy: { '/api': process.env.VITE_API ?? 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // antd with its rc-component, CSS-in-JS and icon runtime in one chunk instead of ~80 small ones: a deep link
            // loads the console in a few requests (Chromium opens 6 connections per host over HTTP/1.1, so 110 requests
            // queue). The login page uses none of it (its icons are the SVG definitions of @ant-design/icons-svg).
            { name: 'antd', includeDependenciesRecursively: false, test: /node_modules[\\/](antd|@babel[\\/]runtime|@ant-design[\\/](icons|cssinjs|cssinjs-utils|colors|fast-color|react-slick)[\\/]|rc-[^\\/]+|@rc-component)/ },
            // the icons' SVG definitions the console uses, but the few the login page draws (login/LoginForm.tsx)
            {
              name: 'icons', includeDependenciesRecursively: false,
              test: /@ant-design[\\/]icons-svg[\\/]es[\\/]asn[\\/](?!(User|Lock|Safety|Global|Eye|EyeInvisible|Loading)Outlined\.js|(ExclamationCircle|CloseCircle)Filled\.js)/,
            },
            // the contract's endpoint definitions and validators with TypeBox, but the error codes the login page needs
            {
              name: 'contract', includeDependenciesRecursively: false,
              test: /packages[\\/]contract[\\/]src[\\/](?!errors\.ts)|node_modules[\\/]@sinclair[\\/]typebox[\\/]/,
            },
          ],
        },
        // (no chunk may import one that imports it back: two chunks in a cycle, loaded by imports running in parallel
        // as the boot starts them, can run one before the other is done; bench/bundle-size.ts checks there is none)
      },
    },
  },
});

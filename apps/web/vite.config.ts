import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': process.env.VITE_API ?? 'http://localhost:8080' },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    chunkSizeWarningLimit: 1500,
  },
});

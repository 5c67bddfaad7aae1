import { lazy } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { Layout } from './layout.tsx';
import { HomePage } from '../pages/home.tsx';
import { NotFoundPage } from '../pages/not-found.tsx';

/*
 * Declarative routing (BrowserRouter + Routes) rather than a data router: Folio has no loaders or
 * actions, and this keeps ~17 KB gzip of router code out of the first load. Home is in the entry
 * chunk; every other page is a small lazy chunk fetched on navigation.
 */
const ToolsPage = lazy(async () => ({ default: (await import('../pages/tools.tsx')).ToolsPage }));
const ToolDetailRoute = lazy(async () => ({ default: (await import('../pages/tool-detail.tsx')).ToolDetailRoute }));
const AboutPage = lazy(async () => ({ default: (await import('../pages/about.tsx')).AboutPage }));
const ContactPage = lazy(async () => ({ default: (await import('../pages/contact.tsx')).ContactPage }));
const PrivacyPage = lazy(async () => ({ default: (await import('../pages/privacy.tsx')).PrivacyPage }));
const TermsPage = lazy(async () => ({ default: (await import('../pages/terms.tsx')).TermsPage }));
// Files opened with Folio from the OS or shared to it (manifest file_handlers / share_target); owned by the PWA area.
const OpenFilesPage = lazy(async () => ({ default: (await import('../pwa/open-page.tsx')).OpenFilesPage }));
const HowItWorksPage = lazy(async () => ({ default: (await import('../pages/how-it-works.tsx')).HowItWorksPage }));

/** Every route (docs/architecture.md, "App frame"), /privacy-policy, and a 404 page for anything else. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path="/" element={<HomePage />} />
        <Route path="/tools" element={<ToolsPage />} />
        <Route path="/tools/:toolId" element={<ToolDetailRoute />} />
        <Route path="/about" element={<AboutPage />} />
        <Route path="/contact" element={<ContactPage />} />
        <Route path="/privacy" element={<PrivacyPage />} />
        {/* The Terms page links here; it is the same page as /privacy. */}
        <Route path="/privacy-policy" element={<Navigate to="/privacy" replace />} />
        <Route path="/terms" element={<TermsPage />} />
        <Route path="/how-it-works" element={<HowItWorksPage />} />
        <Route path="/open" element={<OpenFilesPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}

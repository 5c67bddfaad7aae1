import { createBrowserRouter, Navigate } from 'react-router';
import { Layout } from './layout.tsx';
import { HomePage } from '../pages/home.tsx';
import { ToolsPage } from '../pages/tools.tsx';
import { ToolDetailPage } from '../pages/tool-detail.tsx';
import { AboutPage } from '../pages/about.tsx';
import { ContactPage } from '../pages/contact.tsx';
import { PrivacyPage } from '../pages/privacy.tsx';
import { TermsPage } from '../pages/terms.tsx';
import { HowItWorksPage } from '../pages/how-it-works.tsx';
import { NotFoundPage } from '../pages/not-found.tsx';
import { OpenFilesPage } from '../pwa/open-page.tsx';

export const router = createBrowserRouter([
  {
    element: <Layout />,
    errorElement: <NotFoundPage />,
    children: [
      { path: '/', element: <HomePage /> },
      { path: '/tools', element: <ToolsPage /> },
      { path: '/tools/:toolId', element: <ToolDetailPage /> },
      { path: '/about', element: <AboutPage /> },
      { path: '/contact', element: <ContactPage /> },
      { path: '/privacy', element: <PrivacyPage /> },
      // The Terms page links here (spec §2); it is the same page as /privacy.
      { path: '/privacy-policy', element: <Navigate to="/privacy" replace /> },
      { path: '/terms', element: <TermsPage /> },
      { path: '/how-it-works', element: <HowItWorksPage /> },
      // Files opened with Folio from the OS or shared to it (manifest file_handlers / share_target).
      { path: '/open', element: <OpenFilesPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { findTool } from '../catalogue/index.ts';
import type { ToolEntry } from '../catalogue/types.ts';
import { Icon, toneClass } from '../app/icon.tsx';
import { usePageTitle } from '../app/page-title.ts';
import { ToolModal } from '../tool-ui/tool-modal.tsx';
import type { ToolLocationState } from './tool-card.tsx';

/** /tools/:toolId — an unknown id redirects to /tools; a new id remounts the page (and resets its modal). */
export function ToolDetailRoute() {
  const { toolId } = useParams();
  const tool = findTool(toolId);
  if (!tool) return <Navigate to="/tools" replace />;
  return <ToolDetailPage key={tool.id} tool={tool} />;
}

function isFileTool(tool: ToolEntry): boolean {
  return tool.kind === 'file';
}

/** The tool's detail page: title, the button that opens its modal, then the sections that have content. */
export function ToolDetailPage({ tool }: { tool: ToolEntry }) {
  const location = useLocation();
  const navigate = useNavigate();
  const arrivedOpen = (location.state as ToolLocationState | null)?.open === true;
  const [open, setOpen] = useState(arrivedOpen);
  const [droppedFiles, setDroppedFiles] = useState<File[]>();
  const [dragging, setDragging] = useState(false);
  // A link to this same tool followed from this page (header or phone menu) opens it too.
  useEffect(() => {
    if (arrivedOpen) setOpen(true);
  }, [arrivedOpen, location.key]);
  const buttonRef = useRef<HTMLButtonElement>(null);
  usePageTitle(tool.name);
  const { content } = tool;
  const actionLabel = isFileTool(tool) ? 'Upload Files' : 'Get Started';

  function close() {
    setOpen(false);
    setDroppedFiles(undefined);
    // Forget the "open on arrival" flag so a reload or Back shows the page, not the modal again.
    if (arrivedOpen) navigate('.', { replace: true, state: null });
  }

  return (
    <article
      className={`tool-detail${dragging ? ' dragging-file' : ''}`}
      // A file dropped anywhere on a file tool's page opens the tool with it (not the browser's viewer).
      onDragOver={(event) => {
        if (tool.kind !== 'file' || open || !event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(event) => {
        if (tool.kind !== 'file' || open) return;
        event.preventDefault();
        setDragging(false);
        const files = [...event.dataTransfer.files];
        if (files.length === 0) return;
        setDroppedFiles(files);
        setOpen(true);
      }}
    >
      <section className="tool-hero">
        <div className="container">
          <nav aria-label="Breadcrumb" className="breadcrumb">
            <Link to="/tools">Tools</Link>
            <Icon name="chevron-right" size={14} />
            <span aria-current="page">{tool.name}</span>
          </nav>
          <div className="tool-hero-main">
            <span className={`tool-icon tool-icon-lg ${toneClass(tool.icon)}`}>
              <Icon name={tool.icon} size={34} />
            </span>
            <div>
              <h1>{tool.name}</h1>
              <p className="lead">{tool.description}</p>
            </div>
          </div>
          <div className="button-row">
            <button ref={buttonRef} type="button" className="button primary large" onClick={() => setOpen(true)}>
              <Icon name={isFileTool(tool) ? 'upload' : 'arrow-right'} size={20} />
              {actionLabel}
            </button>
            <span className="hero-note">
              <Icon name="shield" size={16} /> Runs in your browser · nothing is uploaded
            </span>
          </div>
        </div>
      </section>

      <div className="container tool-body">
        {content.overview && (
          <section className="tool-section">
            <h2 className="visually-hidden">Overview</h2>
            <p className="overview">{content.overview}</p>
          </section>
        )}
        <div className="tool-grid">
          {content.features.length > 0 && (
            <section className="tool-section card">
              <h2>
                <Icon name="check" size={20} /> Key Features
              </h2>
              <ul className="check-list">
                {content.features.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </section>
          )}
          {content.usage.length > 0 && (
            <section className="tool-section card">
              <h2>
                <Icon name="arrow-right" size={20} /> How to Use
              </h2>
              <ol className="steps-list">
                {content.usage.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ol>
            </section>
          )}
          {content.perfectFor.length > 0 && (
            <section className="tool-section card">
              <h2>
                <Icon name="heart" size={20} /> Perfect For
              </h2>
              <ul className="dot-list">
                {content.perfectFor.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </section>
          )}
          {content.privacy && (
            <section className="tool-section card">
              <h2>
                <Icon name="shield" size={20} /> Privacy &amp; Security
              </h2>
              <p>{content.privacy}</p>
            </section>
          )}
        </div>
        {content.whyUse && (
          <section className="tool-section why-use">
            <h2>Why Use Folio</h2>
            <p>{content.whyUse}</p>
            <button type="button" className="button primary" onClick={() => setOpen(true)}>
              Open {tool.name} <Icon name="arrow-right" size={18} />
            </button>
          </section>
        )}
      </div>
      {open && (
        <ToolModal
          key={tool.id}
          tool={tool}
          onClose={close}
          fallbackFocus={() => buttonRef.current}
          initialFiles={droppedFiles}
        />
      )}
    </article>
  );
}

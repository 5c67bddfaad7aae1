/**
 * Reads an OpenDocument Text (.odt) into sections of the layout model: common and automatic styles
 * with parent inheritance, paragraphs and headings, spans, lists, tables, pictures, tabs, line
 * and page breaks, the master page's size, margins, header and footer (with page-number fields). A
 * paragraph whose style names another master page starts a new section (e.g. a landscape page).
 */
import type JSZip from 'jszip';
import type { Block, LineNumbers, RunStyle, Section } from './model.ts';
import { attr, find, kid, kids, length, num, parseXml, zipText, type XmlElement } from './xml.ts';
import { odfColumns, OdfStyles, OdfTextReader } from './odf.ts';

export interface OdtReadResult {
  sections: Section[];
  notes: string[];
}

export async function readOdfStyles(
  zip: JSZip,
): Promise<{ styles: OdfStyles; content: XmlElement; stylesRoot?: XmlElement }> {
  const contentXml = await zipText(zip, 'content.xml');
  if (!contentXml) throw new Error('content.xml is missing');
  const styles = new OdfStyles();
  const stylesXml = await zipText(zip, 'styles.xml');
  const stylesRoot = stylesXml ? parseXml(stylesXml) : undefined;
  styles.add(stylesRoot);
  const content = parseXml(contentXml);
  styles.add(content);
  return { styles, content, stylesRoot };
}

/**
 * Tools › Line Numbering (text:linenumbering-configuration, one for the whole document; on unless
 * text:number-lines="false"). Only numbers on the left are drawn, as most documents have them.
 */
function lineNumbersOf(
  styles: OdfStyles,
  stylesRoot: XmlElement | undefined,
  baseRun: RunStyle,
): LineNumbers | undefined {
  const config = find(stylesRoot, 'text:linenumbering-configuration');
  if (!config || attr(config, 'text:number-lines') === 'false') return undefined;
  const position = attr(config, 'text:number-position') ?? 'left';
  if (position !== 'left') return undefined;
  const paragraphRun = styles.runStyle(styles.chain('paragraph', 'Standard'), baseRun);
  return {
    start: 1,
    countBy: Math.max(1, num(config, 'text:increment') ?? 1),
    distance: length(attr(config, 'text:offset')) ?? 14.17, // LibreOffice's default, 0.5 cm
    restart: attr(config, 'text:restart-on-page') === 'true' ? 'newPage' : 'continuous',
    style: styles.runStyle(styles.chain('text', attr(config, 'text:style-name'), false), paragraphRun),
  };
}

export async function readOdt(zip: JSZip): Promise<OdtReadResult> {
  const { styles, content, stylesRoot } = await readOdfStyles(zip);
  const body = kid(kid(content, 'office:body'), 'office:text');
  if (!body) throw new Error('the document has no text body');
  const notes = new Set<string>();
  const baseRun: RunStyle = { font: 'Liberation Serif', size: 12 };
  const lineNumbers = lineNumbersOf(styles, stylesRoot, baseRun);

  /** A block's style chain (a paragraph's, or a table's). */
  const chainOf = (el: XmlElement) =>
    el.nodeName === 'table:table'
      ? styles.chain('table', attr(el, 'table:style-name'))
      : styles.chain('paragraph', attr(el, 'text:style-name'));

  /** The master page a block asks for (its own automatic style's style:master-page-name). */
  const masterOf = (el: XmlElement): string | undefined => {
    const family = el.nodeName === 'table:table' ? 'table' : 'paragraph';
    return attr(
      styles.style(family, attr(el, family === 'table' ? 'table:style-name' : 'text:style-name')),
      'style:master-page-name',
    );
  };

  const sections: Section[] = [];
  const startSection = async (masterName: string | undefined, first: XmlElement | undefined) => {
    const { page, master, pageStyle, columns } = styles.pageSetup(masterName);
    // A paragraph that starts a page style may restart its numbers (style:page-number="1", or "auto").
    const restart = first && Number(styles.prop(chainOf(first), 'style:paragraph-properties', 'style:page-number'));
    const textWidth = page.width - page.margin.left - page.margin.right;
    const furnitureReader = new OdfTextReader({ zip, styles, notes, baseRun, textWidth });
    const part = async (tag: string) => {
      const el = kid(master, tag);
      return el && attr(el, 'style:display') !== 'false' ? furnitureReader.blocks(el) : undefined;
    };
    const section: Section = {
      page,
      blocks: [],
      header: await part('style:header'),
      footer: await part('style:footer'),
      lineNumbers,
      pageNumbers: { style: pageStyle, start: restart && restart > 0 ? restart : undefined },
      columns,
    };
    sections.push(section);
    return { section, reader: new OdfTextReader({ zip, styles, notes, baseRun, textWidth }) };
  };

  const children = kids(body).filter(
    (el) =>
      ![
        'text:sequence-decls',
        'text:variable-decls',
        'text:user-field-decls',
        'office:forms',
        'table:calculation-settings',
      ].includes(el.nodeName),
  );
  const firstMaster = children.length ? masterOf(children[0]) : undefined;
  let current = await startSection(firstMaster, children[0]);
  let currentMaster = firstMaster;
  // One reader per document keeps list numbering running across sections.
  const reader = current.reader;
  for (const child of children) {
    const master = masterOf(child);
    if (master && master !== currentMaster && (current.section.blocks.length > 0 || current.section.continuous)) {
      current = await startSection(master, child);
      currentMaster = master;
    }
    // A section in columns (Insert › Section › Columns) goes on the page as a continuous section of its
    // own; what follows it, in the page's columns again.
    const sectionColumns =
      child.nodeName === 'text:section'
        ? odfColumns(kid(styles.style('section', attr(child, 'text:style-name')), 'style:section-properties'))
        : undefined;
    if (sectionColumns) {
      const page = current.section;
      const continued = (columns: Section['columns'], blocks: Block[]): Section => ({
        ...page,
        blocks,
        columns,
        continuous: true,
        bookmark: undefined,
        pageNumbers: { style: page.pageNumbers?.style },
      });
      sections.push(continued(sectionColumns, await reader.block(child)));
      current = { ...current, section: continued(page.columns, []) };
      sections.push(current.section);
      continue;
    }
    const blocks: Block[] = await reader.block(child);
    current.section.blocks.push(...blocks);
  }
  // (A section after a section in columns may stay empty: it would start a page of its own.)
  const printed = sections.filter((section, i) => section.blocks.length > 0 || i === 0);
  return { sections: printed, notes: [...notes] };
}

/** The chart model that parse.ts reads from a c:chartSpace part and the layout modules draw. */
import type { Rgb } from '../model.ts';
import type { XmlElement } from '../xml.ts';

export interface ChartTextStyle {
  font?: string;
  size: number;
  bold?: boolean;
  italic?: boolean;
  color: Rgb;
}

export interface ChartSeries {
  name: string;
  categories: string[];
  values: Array<number | null>;
  /** Scatter and bubble charts: x values (1, 2, 3… when the x values are text). */
  xValues?: Array<number | null>;
  sizes?: Array<number | null>;
  formatCode: string;
  fill: Rgb;
  /** Outline / line colour; undefined = no line. */
  line?: Rgb;
  lineWidth: number;
  /** Per-point fills (pie slices, varied colours, c:dPt). */
  pointFills: Rgb[];
  marker: boolean;
  dataLabels: DataLabels;
}

export interface DataLabels {
  value: boolean;
  percent: boolean;
  category: boolean;
  series: boolean;
  position?: string;
  formatCode?: string;
}

export type PlotType = 'bar' | 'line' | 'area' | 'pie' | 'doughnut' | 'scatter' | 'bubble' | 'radar';

export interface ChartPlot {
  type: PlotType;
  /** Bars: 'col' (vertical) or 'bar' (horizontal). */
  barDir: 'col' | 'bar';
  grouping: 'clustered' | 'standard' | 'stacked' | 'percentStacked';
  series: ChartSeries[];
  gapWidth: number;
  overlap: number;
  holeSize: number;
  firstSliceAngle: number;
  radarFilled: boolean;
  scatterLines: boolean;
  axisIds: string[];
  /** A 3-D kind (drawn flat; its axes are scaled as LibreOffice scales 3-D axes). */
  threeD: boolean;
}

export interface ChartAxis {
  id: string;
  kind: 'cat' | 'val' | 'date';
  position: 'b' | 'l' | 't' | 'r';
  deleted: boolean;
  labels: boolean;
  formatCode?: string;
  /** The format comes from the data (sourceLinked). */
  linked: boolean;
  min?: number;
  max?: number;
  majorUnit?: number;
  gridlines?: Rgb;
  line?: Rgb;
  /** Major tick marks across the axis line. */
  tickMark: 'out' | 'in' | 'cross' | 'none';
  reversed: boolean;
  title?: string;
  crossBetween?: 'between' | 'midCat';
  /** The tick labels' text: the chart's, with the axis's own c:txPr (size, bold, colour, font) over it. */
  text: ChartTextStyle;
  /** The tick labels turned this many degrees anticlockwise (c:txPr a:bodyPr rot); undefined: automatic. */
  labelAngle?: number;
  /** Only every n-th category name is shown (c:tickLblSkip); undefined: automatic. */
  labelSkip?: number;
}

export interface ChartModel {
  title?: string;
  titleStyle: ChartTextStyle;
  text: ChartTextStyle;
  plots: ChartPlot[];
  axes: ChartAxis[];
  legend?: { position: 'r' | 'l' | 't' | 'b' | 'tr' };
  /** Chart types read but not drawn (e.g. 'surface'). */
  unsupported: string[];
  /** The chart area's fill and outline. */
  background?: Rgb;
  border?: Rgb;
}

/** How a renderer resolves DrawingML colours: the theme's accents and a resolver for fill elements. */
export interface ChartTheme {
  accents: Rgb[];
  font?: string;
  /** Colour of an element holding a:srgbClr / a:schemeClr / a:sysClr / a:prstClr, with modifiers. */
  color(fillParent: XmlElement | undefined): Rgb | undefined;
  /** Word and Excel outline a chart area that has no outline of its own; PowerPoint does not. */
  defaultBorder?: boolean;
}
